//! The terminal a progress line is drawn on.

/// The width in columns of the terminal on stderr, if stderr is one that says
/// (`TIOCGWINSZ`); `None` for a pipe or a file.
pub fn stderr_width() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills a `winsize` we own; on error nothing is read from it.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut ws) };
    (r == 0 && ws.ws_col > 0).then_some(usize::from(ws.ws_col))
}

/// `line` cut to at most `width - 1` characters (the last column left free, so that the
/// cursor does not wrap), with `…` where it was cut. A line redrawn in place (`\r`) that
/// wraps leaves a copy of itself per redraw on an 80-column terminal.
pub fn fit(line: &str, width: usize) -> String {
    let max = width.saturating_sub(1).max(1);
    if line.chars().count() <= max {
        return line.to_string();
    }
    let mut s: String = line.chars().take(max - 1).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_cut_to_the_width_with_a_mark() {
        assert_eq!(fit("abcdef", 80), "abcdef");
        assert_eq!(fit("abcdef", 5), "abc…");
        assert_eq!(fit("abcdef", 5).chars().count(), 4);
        assert_eq!(fit("abcdef", 0), "…");
    }
}
