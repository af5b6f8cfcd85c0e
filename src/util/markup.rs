//! Text put into HTML and SVG (the campaign report, its charts, BanditFuzz's plot). One
//! function for both: a name a seed or a solver chose (`a<b`, `R&D`, a quote) must show
//! as itself, never as markup, and never be escaped twice.

/// `s` as HTML or XML character data or a quoted attribute value: `&`, `<`, `>`, `"` and
/// `'` become references (HTML Living Standard §13.1.4; XML 1.0 §2.4), everything else
/// is kept. One pass over the text, so an `&` that this function writes is never itself
/// replaced (escaping `<` before `&` turned `<` into `&amp;lt;`).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    /// Inverse of [`escape`] for the five references it writes, to check that the
    /// escaped text reads back as the original.
    fn unescape(s: &str) -> String {
        s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
    }

    #[test]
    fn each_special_character_becomes_its_reference() {
        assert_eq!(escape("&"), "&amp;");
        assert_eq!(escape("<"), "&lt;");
        assert_eq!(escape(">"), "&gt;");
        assert_eq!(escape("\""), "&quot;");
        assert_eq!(escape("'"), "&#39;");
        assert_eq!(escape("z3-4.8.7 (QF_BV) ∀x"), "z3-4.8.7 (QF_BV) ∀x");
        assert_eq!(escape(""), "");
    }

    /// BanditFuzz's plot replaced `<` before `&`: `a<b` came out as `a&amp;lt;b`.
    #[test]
    fn an_ampersand_it_writes_is_never_escaped_again() {
        assert_eq!(escape("a<b"), "a&lt;b");
        assert_eq!(escape("a<b&c"), "a&lt;b&amp;c");
        assert_eq!(escape("&lt;"), "&amp;lt;");
        assert_eq!(escape("<script>alert('x')</script>"), "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    }

    /// Every printable ASCII string of up to three characters from a set rich in
    /// specials: no raw special survives, and the text reads back unchanged.
    #[test]
    fn escaped_text_has_no_markup_and_reads_back() {
        let alphabet = ['&', '<', '>', '"', '\'', 'a', ';', '#', 'l', 't'];
        let mut seen = 0;
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    let s: String = [a, b, c].iter().collect();
                    let e = escape(&s);
                    assert!(!e.contains(['<', '>', '"', '\'']), "{s:?} -> {e:?}");
                    assert!(e.match_indices('&').all(|(i, _)| ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                        .iter()
                        .any(|r| e[i..].starts_with(r))));
                    assert_eq!(unescape(&e), s);
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, 1000);
    }
}
