//! The campaign's report as one self-contained HTML page: the Markdown report's tables
//! and headings rendered as HTML, the plots over time above the part on how the campaign
//! ran, and the page shell (styles, a sortable-table script) a finding's page shares.

use super::{markdown, plots, uncell, Data};
use crate::store::layout;
use crate::util::markup::escape;
use std::fmt::Write;
use std::path::Path;

/// Splits a Markdown table row into its cells, honouring `\|` (written by [`super::cell`]).
pub(super) fn split_row(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').filter(|r| !r.ends_with('\\')).unwrap_or(inner);
    let (mut cells, mut start, mut escaped) = (vec![], 0, false);
    for (i, ch) in inner.char_indices() {
        match ch {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => {
                cells.push(&inner[start..i]);
                start = i + 1;
            }
            _ => escaped = false,
        }
    }
    cells.push(&inner[start..]);
    cells
}

/// One Markdown cell as HTML: a whole-cell `[text](target)` link becomes `<a>`, anything
/// else is text. Never slices outside the cell, whatever it holds.
fn html_cell(c: &str) -> String {
    if let Some(rest) = c.strip_prefix('[') {
        // The first `](` not escaped by a backslash, and a closing `)` at the end.
        let bytes = rest.as_bytes();
        let k = (0..bytes.len().saturating_sub(1))
            .find(|&i| bytes[i] == b']' && bytes[i + 1] == b'(' && (i == 0 || bytes[i - 1] != b'\\'));
        if let (Some(k), Some(target)) = (k, rest.strip_suffix(')')) {
            if k + 2 <= target.len() {
                // A finding's report.md has its HTML page beside it.
                let href = uncell(&target[k + 2..]);
                let href = match href.strip_suffix(layout::REPORT_MD).and_then(|d| d.strip_suffix('/')) {
                    Some(dir) => format!("{dir}/{}", layout::REPORT_HTML),
                    None => href,
                };
                return format!("<a href=\"{}\">{}</a>", escape(&href), escape(&uncell(&rest[..k])));
            }
        }
    }
    escape(&uncell(c))
}

/// The HTML report: the Markdown tables rendered as HTML tables, plus the plot.
pub fn html(out: &Path, d: &Data) -> String {
    let md = markdown(out, d);
    let mut body = String::new();
    let mut in_table = false;
    for line in md.lines() {
        if line.starts_with('|') {
            if line.starts_with("|---") {
                continue;
            }
            let cells = split_row(line);
            if !in_table {
                body.push_str("<table><tr>");
                for c in &cells {
                    let _ = write!(body, "<th>{}</th>", escape(&uncell(c.trim())));
                }
                body.push_str("</tr>\n");
                in_table = true;
            } else {
                body.push_str("<tr>");
                for c in &cells {
                    let _ = write!(body, "<td>{}</td>", html_cell(c.trim()));
                }
                body.push_str("</tr>\n");
            }
            continue;
        }
        if in_table {
            body.push_str("</table>\n");
            in_table = false;
        }
        if let Some(h) = line.strip_prefix("## ") {
            // The plots open the part on how the campaign ran, below the findings.
            if h == "Throughput" {
                body.push_str(&plots(d));
            }
            let _ = writeln!(body, "<h2>{}</h2>", escape(h));
        } else if let Some(h) = line.strip_prefix("### ") {
            let _ = writeln!(body, "<h3>{}</h3>", escape(h));
        } else if let Some(h) = line.strip_prefix("# ") {
            let _ = writeln!(body, "<h1>{}</h1>", escape(h));
        } else if !line.is_empty() {
            let _ = writeln!(body, "<p>{}</p>", escape(line));
        }
    }
    if in_table {
        body.push_str("</table>\n");
    }
    page("smtstorm report", &body)
}

/// The page around a report's body: styles, and a script that sorts a table by the
/// column whose header is clicked. Script errors are counted on the root element
/// (`data-script-errors`) and a finished load sets `data-ready`, so a headless browser's
/// DOM dump shows both.
pub(super) fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{}</title>\
<script>window.addEventListener('error',function(){{var r=document.documentElement;r.setAttribute('data-script-errors',1+(+r.getAttribute('data-script-errors')||0))}});</script>\
<style>{STYLE}</style></head><body>\n{body}<script>{SORT}</script></body></html>\n",
        escape(title)
    )
}

const STYLE: &str =
    "body{font-family:sans-serif;margin:2em;color:#222;max-width:80em}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;vertical-align:top}th{background:#f3f3f3;cursor:pointer}\
pre{background:#f7f7f7;border:1px solid #ddd;padding:.6em;overflow:auto;font-size:12px;max-height:40em}\
.plots{display:flex;flex-wrap:wrap;gap:8px}.chart{border:1px solid #ddd}code{background:#f3f3f3}";

/// Sorts a table by a clicked header (numbers as numbers), toggling the direction.
const SORT: &str = "document.querySelectorAll('table').forEach(function(t){var h=t.rows[0];if(!h)return;\
Array.prototype.forEach.call(h.cells,function(c,i){c.title='sort by '+c.textContent;c.addEventListener('click',function(){\
var rows=Array.prototype.slice.call(t.rows,1),up=c.getAttribute('data-up')!=='1';c.setAttribute('data-up',up?'1':'0');\
rows.sort(function(a,b){var x=a.cells[i]?a.cells[i].textContent:'',y=b.cells[i]?b.cells[i].textContent:'',nx=parseFloat(x),ny=parseFloat(y);\
var r=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return up?r:-r});rows.forEach(function(r){r.parentNode.appendChild(r)})})})});\
document.documentElement.setAttribute('data-ready','1');";
