//! Tokenizer for SMT-LIB 2.6 concrete syntax (SMT-LIB 2.6 reference, §3.1 "Lexicon").
//!
//! Works on bytes, never allocates, and never panics: every byte string either tokenizes
//! or yields a [`LexError`] with the offset where it went wrong. Tokens are spans into the
//! input, so literal text (`0.050`, `#b0011`, `|x y|`) is preserved exactly.

/// Kind of a lexical token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Tok {
    LParen,
    RParen,
    /// A simple symbol (`x`, `bvadd`, `<=`).
    Symbol,
    /// A `|quoted symbol|`; the span includes the bars.
    QuotedSymbol,
    /// `:keyword`; the span includes the colon.
    Keyword,
    Numeral,
    Decimal,
    /// cvc5's rational literal `1/3` (not SMT-LIB 2.6, found in cvc5's regressions).
    Rational,
    /// `#x...`; the span includes the prefix.
    Hex,
    /// `#b...`; the span includes the prefix.
    Binary,
    /// `"..."`; the span includes the quotes, escapes (`""`, `\u{..}`) are kept as written.
    String,
    Eof,
    /// A lexical error at `start`; [`Lexer::error`] says what it was.
    Error,
}

/// One token: its kind and byte span `[start, end)` in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
}

/// What went wrong while tokenizing, and where (byte offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub offset: u32,
    pub message: &'static str,
}

// Character classes. SMT-LIB 2.6 §3.1: simple symbols are non-empty sequences of letters,
// digits and ~ ! @ $ % ^ & * _ - + = < > . ? / not starting with a digit. Real corpora also
// contain other printable bytes (non-ASCII UTF-8 in cvc5's string tests, `#` inside z3
// names, `'` in Boogie-generated names), which solvers accept; we accept every byte that
// cannot start another token, so no seed is lost to the lexer.
const WS: u8 = 1;
const SYM: u8 = 2;
const DIGIT: u8 = 4;

const fn classes() -> [u8; 256] {
    let mut t = [SYM; 256];
    let mut i = 0;
    while i < 32 {
        t[i] = 0; // control characters are not symbol characters
        i += 1;
    }
    t[b' ' as usize] = WS;
    t[b'\t' as usize] = WS;
    t[b'\n' as usize] = WS;
    t[b'\r' as usize] = WS;
    t[0x0b] = WS;
    t[0x0c] = WS;
    t[127] = 0;
    t[b'(' as usize] = 0;
    t[b')' as usize] = 0;
    t[b';' as usize] = 0;
    t[b'"' as usize] = 0;
    t[b'|' as usize] = 0;
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = SYM | DIGIT;
        d += 1;
    }
    t
}

static CLASS: [u8; 256] = classes();

#[inline]
fn is_sym(b: u8) -> bool {
    CLASS[b as usize] & SYM != 0
}

/// Per-byte class bits of the whole input, 64 bytes per word: `ws` marks whitespace,
/// `delim` marks every byte that ends a symbol (whitespace, parens, `"`, `|`, `;`,
/// control characters). With them, skipping blanks and finding the end of a symbol is a
/// `trailing_zeros` instead of a byte loop whose exit mispredicts on almost every token.
struct Masks {
    ws: Vec<u64>,
    delim: Vec<u64>,
}

impl Masks {
    /// The masks of `src`, in the given buffers (reused from an earlier input).
    fn new_in(src: &[u8], mut ws: Vec<u64>, mut delim: Vec<u64>) -> Masks {
        let words = src.len() / 64 + 1;
        ws.clear();
        ws.resize(words, 0);
        delim.clear();
        delim.resize(words, 0);
        let mut m = Masks { ws, delim };
        let chunks = src.len() / 16;
        for c in 0..chunks {
            let (w, d) = classify16(&src[c * 16..c * 16 + 16]);
            let (word, shift) = (c / 4, (c % 4) * 16);
            m.ws[word] |= (w as u64) << shift;
            m.delim[word] |= (d as u64) << shift;
        }
        for (i, &b) in src.iter().enumerate().skip(chunks * 16) {
            let cls = CLASS[b as usize];
            if cls & WS != 0 {
                m.ws[i / 64] |= 1 << (i % 64);
            }
            if cls & SYM == 0 {
                m.delim[i / 64] |= 1 << (i % 64);
            }
        }
        m
    }

    /// About how many tokens `len` bytes hold: every delimiter that is not whitespace
    /// (parentheses, quotes, bars) and every symbol character that follows a delimiter.
    /// Counts a string's or comment's words too, so it is an upper estimate, without
    /// tokenizing (the parser sizes its arenas from it instead of from a token tape).
    fn token_estimate(&self, len: usize) -> usize {
        let mut n = 0usize;
        let mut carry = 1u64; // the byte before the input counts as a delimiter
        for (i, (&d, &w)) in self.delim.iter().zip(&self.ws).enumerate() {
            // Bits past the end are zero in `delim` and would read as symbol bytes.
            let valid = if (i + 1) * 64 <= len { !0u64 } else { (1u64 << (len - i * 64)) - 1 };
            let starts = !d & ((d << 1) | carry) & valid;
            n += (starts.count_ones() + (d & !w & valid).count_ones()) as usize;
            carry = d >> 63;
        }
        n
    }

    /// First position `>= p` whose bit is `want` (or `len` if none).
    #[inline(always)]
    fn find(bits: &[u64], p: usize, len: usize, want: bool) -> usize {
        let flip = if want { 0 } else { !0 };
        let mut w = p >> 6;
        if w >= bits.len() {
            return len;
        }
        let mut word = (bits[w] ^ flip) & (!0u64 << (p & 63));
        loop {
            if word != 0 {
                return (w * 64 + word.trailing_zeros() as usize).min(len);
            }
            w += 1;
            if w >= bits.len() {
                return len;
            }
            word = bits[w] ^ flip;
        }
    }
}

/// Whitespace and delimiter bits of 16 bytes (bit i = byte i).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify16(chunk: &[u8]) -> (u16, u16) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; the load is unaligned and reads
    // exactly the 16 bytes of `chunk`.
    unsafe {
        let x = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
        let eq = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
        let ws = _mm_or_si128(_mm_or_si128(eq(b' '), eq(b'\n')), _mm_or_si128(eq(b'\t'), eq(b'\r')));
        let ws = _mm_or_si128(ws, _mm_or_si128(eq(0x0b), eq(0x0c)));
        // Unsigned x <= 0x1f: control characters (whitespace among them).
        let ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x);
        let punct = _mm_or_si128(_mm_or_si128(eq(b'('), eq(b')')), _mm_or_si128(eq(b'"'), eq(b'|')));
        let d = _mm_or_si128(_mm_or_si128(ctl, punct), _mm_or_si128(eq(b';'), eq(0x7f)));
        let d = _mm_or_si128(d, ws);
        (_mm_movemask_epi8(ws) as u16, _mm_movemask_epi8(d) as u16)
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn classify16(chunk: &[u8]) -> (u16, u16) {
    let (mut w, mut d) = (0u16, 0u16);
    for (i, &b) in chunk.iter().enumerate() {
        let cls = CLASS[b as usize];
        w |= ((cls & WS != 0) as u16) << i;
        d |= ((cls & SYM == 0) as u16) << i;
    }
    (w, d)
}

/// A streaming tokenizer over a byte slice.
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    error: &'static str,
    legacy_escapes: bool,
    masks: Masks,
}

/// A lexer's buffers, kept between inputs by the parser ([`Lexer::new_in`],
/// [`Lexer::into_buffers`]): most seeds are small, and allocating them afresh was a
/// fixed cost per file.
#[derive(Default)]
pub(crate) struct LexBuffers {
    pub(crate) ws: Vec<u64>,
    pub(crate) delim: Vec<u64>,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        Lexer::new_in(src, &mut LexBuffers::default(), false)
    }

    /// SMT-LIB 2.0 string escapes: `\"` does not end a string. Only for files that do
    /// not parse under the 2.6 rules (in 2.6, `"\"` is a complete string).
    pub fn with_legacy_escapes(src: &'a [u8]) -> Self {
        Lexer::new_in(src, &mut LexBuffers::default(), true)
    }

    /// [`Lexer::new`] (or, with `legacy`, [`Lexer::with_legacy_escapes`]) in the mask
    /// buffers of `b`.
    pub(crate) fn new_in(src: &'a [u8], b: &mut LexBuffers, legacy: bool) -> Self {
        let masks = Masks::new_in(src, std::mem::take(&mut b.ws), std::mem::take(&mut b.delim));
        Lexer { src, pos: 0, error: "", legacy_escapes: legacy, masks }
    }

    /// Gives the mask buffers back.
    pub(crate) fn into_buffers(self, b: &mut LexBuffers) {
        b.ws = self.masks.ws;
        b.delim = self.masks.delim;
    }

    /// The message of the last [`Tok::Error`] token.
    pub fn error(&self) -> &'static str {
        self.error
    }

    #[cold]
    fn fail(&mut self, start: usize, message: &'static str) -> Token {
        self.error = message;
        Token { kind: Tok::Error, start: start as u32, end: start as u32 }
    }

    /// Byte offset of the next unread character.
    pub fn offset(&self) -> u32 {
        self.pos as u32
    }

    /// Goes back (or forward) to byte `offset`, a position this lexer returned from
    /// [`Lexer::offset`]: the parser re-reads a command that its typed grammar refused.
    pub(crate) fn seek(&mut self, offset: u32) {
        self.pos = (offset as usize).min(self.src.len());
    }

    /// About how many tokens the input holds (see `Masks::token_estimate`).
    pub(crate) fn token_estimate(&self) -> usize {
        self.masks.token_estimate(self.src.len())
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        let s = self.src;
        let mut p = self.pos;
        loop {
            if p < s.len() && CLASS[s[p] as usize] & WS != 0 {
                p = Masks::find(&self.masks.ws, p + 1, s.len(), false);
            }
            if p < s.len() && s[p] == b';' {
                // A comment runs to the end of the line (`\r` alone also ends it).
                p = match memchr::memchr2(b'\n', b'\r', &s[p..]) {
                    Some(i) => p + i,
                    None => s.len(),
                };
                continue;
            }
            break;
        }
        self.pos = p;
    }

    /// Tokenizes the rest of the input into a tape that ends with one `Eof` or `Error`
    /// token (the lexer's message is then in [`Lexer::error`]). The parser does not use
    /// one: it reads a token at a time (a 3 MB script's tape was 18 MB, issue 37).
    pub fn tape(&mut self) -> Vec<Token> {
        let mut v = Vec::with_capacity(self.token_estimate() + 1);
        loop {
            let t = self.token();
            v.push(t);
            if matches!(t.kind, Tok::Eof | Tok::Error) {
                return v;
            }
        }
    }

    /// Reads the next token; a [`LexError`] instead of a [`Tok::Error`] token.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        let t = self.token();
        if t.kind == Tok::Error {
            Err(LexError { offset: t.start, message: self.error })
        } else {
            Ok(t)
        }
    }

    /// Reads the next token. After `Eof` it keeps returning `Eof`; after an error the
    /// position is unchanged, so it keeps returning the error.
    // Inlined into the parser: returned through memory, the 12-byte token costs a
    // store-forwarding stall per token (measured with perf annotate).
    #[inline(always)]
    pub fn token(&mut self) -> Token {
        self.skip_ws();
        let s = self.src;
        let start = self.pos;
        if start >= s.len() {
            return Token { kind: Tok::Eof, start: start as u32, end: start as u32 };
        }
        let b = s[start];
        let mut p = start + 1;
        let kind = match b {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'"' => {
                // `""` inside a string literal is an escaped quote (SMT-LIB 2.6 §3.1).
                loop {
                    match memchr::memchr(b'"', &s[p..]) {
                        None => return self.fail(start, "unterminated string literal"),
                        Some(i) => {
                            p += i + 1;
                            if p < s.len() && s[p] == b'"' {
                                p += 1;
                            } else if self.legacy_escapes && s[p - 2] == b'\\' && p - 2 > start {
                                continue;
                            } else {
                                break;
                            }
                        }
                    }
                }
                Tok::String
            }
            b'|' => match memchr::memchr(b'|', &s[p..]) {
                None => return self.fail(start, "unterminated quoted symbol"),
                Some(i) => {
                    p += i + 1;
                    Tok::QuotedSymbol
                }
            },
            b':' => {
                p = Masks::find(&self.masks.delim, p, s.len(), true);
                Tok::Keyword
            }
            b'#' if p < s.len() && (s[p] == b'x' || s[p] == b'b') => {
                let hex = s[p] == b'x';
                p += 1;
                let digits = p;
                while p < s.len() && (if hex { s[p].is_ascii_hexdigit() } else { s[p] == b'0' || s[p] == b'1' }) {
                    p += 1;
                }
                if p == digits || (p < s.len() && is_sym(s[p])) {
                    return self
                        .fail(start, if hex { "malformed hexadecimal literal" } else { "malformed binary literal" });
                }
                if hex {
                    Tok::Hex
                } else {
                    Tok::Binary
                }
            }
            b'0'..=b'9' => {
                while p < s.len() && s[p].is_ascii_digit() {
                    p += 1;
                }
                let mut kind = Tok::Numeral;
                if p + 1 < s.len() && s[p] == b'.' && s[p + 1].is_ascii_digit() {
                    p += 2;
                    while p < s.len() && s[p].is_ascii_digit() {
                        p += 1;
                    }
                    kind = Tok::Decimal;
                } else if p + 1 < s.len() && s[p] == b'/' && s[p + 1].is_ascii_digit() {
                    p += 2;
                    while p < s.len() && s[p].is_ascii_digit() {
                        p += 1;
                    }
                    kind = Tok::Rational;
                } else if p < s.len() && s[p] == b'.' && (p + 1 == s.len() || !is_sym(s[p + 1])) {
                    // `1.` is accepted by z3 and cvc5 as a decimal; keep the text.
                    p += 1;
                    kind = Tok::Decimal;
                }
                if p < s.len() && is_sym(s[p]) {
                    return self.fail(start, "malformed numeral (symbols may not start with a digit)");
                }
                kind
            }
            _ if is_sym(b) => {
                p = Masks::find(&self.masks.delim, p, s.len(), true);
                Tok::Symbol
            }
            _ => return self.fail(start, "unexpected control character"),
        };
        self.pos = p;
        Token { kind, start: start as u32, end: p as u32 }
    }
}

/// Converts a byte offset into a 1-based (line, column) pair; columns count characters.
pub fn line_col(src: &[u8], offset: u32) -> (u32, u32) {
    let off = (offset as usize).min(src.len());
    let before = &src[..off];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[line_start..]).chars().count() as u32 + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, &str)> {
        let mut l = Lexer::new(s.as_bytes());
        let mut v = vec![];
        loop {
            let t = l.next_token().unwrap();
            if t.kind == Tok::Eof {
                return v;
            }
            v.push((t.kind, &s[t.start as usize..t.end as usize]));
        }
    }

    #[test]
    fn every_literal_form_keeps_its_text() {
        assert_eq!(
            kinds(r#"(0 007 0.050 1. 1/3 #xDEad #b0101 "a""b" |x y| :named bv<= ; c"#),
            vec![
                (Tok::LParen, "("),
                (Tok::Numeral, "0"),
                (Tok::Numeral, "007"),
                (Tok::Decimal, "0.050"),
                (Tok::Decimal, "1."),
                (Tok::Rational, "1/3"),
                (Tok::Hex, "#xDEad"),
                (Tok::Binary, "#b0101"),
                (Tok::String, "\"a\"\"b\""),
                (Tok::QuotedSymbol, "|x y|"),
                (Tok::Keyword, ":named"),
                (Tok::Symbol, "bv<="),
            ]
        );
    }

    #[test]
    fn errors_point_at_the_token() {
        let mut l = Lexer::new(b"(assert \"abc");
        l.next_token().unwrap();
        l.next_token().unwrap();
        let e = l.next_token().unwrap_err();
        assert_eq!(e.offset, 8);
        assert_eq!(e.message, "unterminated string literal");
        assert!(Lexer::new(b"#xg").next_token().is_err());
        assert!(Lexer::new(b"12ab").next_token().is_err());
    }

    #[test]
    fn masks_agree_with_the_class_table_on_every_byte() {
        let src: Vec<u8> = (0..=255u8).chain(b"(ab |c| \"d\";e\n)".iter().copied()).cycle().take(1000).collect();
        let m = Masks::new_in(&src, vec![], vec![]);
        for (i, &b) in src.iter().enumerate() {
            let bit = |v: &Vec<u64>| v[i / 64] >> (i % 64) & 1 == 1;
            assert_eq!(bit(&m.ws), CLASS[b as usize] & WS != 0, "ws bit of byte {b:#x}");
            assert_eq!(bit(&m.delim), !is_sym(b), "delim bit of byte {b:#x}");
        }
    }

    #[test]
    fn line_and_column_are_one_based() {
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
        assert_eq!(line_col(b"x", 0), (1, 1));
    }
}
