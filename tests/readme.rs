//! README.md and docs/*.md say only what this build does. Every command line in a
//! ```sh block that calls `smtstorm` names a subcommand and flags the binary's own
//! `--help` lists, every `scripts/...` line names an executable script (and flags its
//! text handles), unless the block is marked as an example (a `<!-- example -->` line
//! right before it). The campaign-file example parses as a campaign definition and names
//! every key. README stays short (≤ 200 lines), relative links and anchors resolve, and
//! no page points into the project's own tracker by number ("issue 22", "session 19",
//! "#27"): history belongs in git and BENCHMARKS.md.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Put on the line before a fenced block whose commands are illustrations (a checker
/// script to write, output to expect), not smtstorm invocations to check.
const EXAMPLE_MARKER: &str = "<!-- example -->";
const README_MAX_LINES: usize = 200;

struct Doc {
    path: PathBuf,
    text: String,
}

/// README.md and every docs/*.md, sorted.
fn docs() -> Vec<Doc> {
    let root = common::repo();
    let mut paths = vec![root.join("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    paths.extend(pages);
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Doc { path, text }
        })
        .collect()
}

struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    lang: String,
    body: String,
    example: bool,
}

/// The fenced code blocks of a Markdown text, with their info string.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].trim_start().strip_prefix("```") else {
            i += 1;
            continue;
        };
        let example =
            lines[..i].iter().rev().find(|l| !l.trim().is_empty()).is_some_and(|l| l.trim() == EXAMPLE_MARKER);
        let start = i;
        let mut body = String::new();
        i += 1;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            body.push_str(lines[i]);
            body.push('\n');
            i += 1;
        }
        out.push(Block { line: start + 1, lang: info.trim().to_string(), body, example });
        i += 1;
    }
    out
}

/// Shell words of one line: whitespace-separated, quotes kept together (and removed), a
/// word starting with `#` ends the line.
fn words(line: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None if c == '#' && !in_word => break,
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// The simple commands of a block: continuation lines joined, pipelines and lists split,
/// leading `VAR=value` assignments dropped; a quoted word that is itself a smtstorm
/// command line (`sbatch --wrap "smtstorm merge ..."`) counts too.
fn commands(body: &str) -> Vec<Vec<String>> {
    let mut joined = vec![];
    let mut cur = String::new();
    for line in body.lines() {
        match line.strip_suffix('\\') {
            Some(head) => {
                cur.push_str(head);
                cur.push(' ');
            }
            None => {
                cur.push_str(line);
                joined.push(std::mem::take(&mut cur));
            }
        }
    }
    let mut out = vec![];
    for line in joined {
        split_commands(words(&line), &mut out);
    }
    out
}

fn split_commands(ws: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut cmd: Vec<String> = vec![];
    let flush = |cmd: &mut Vec<String>, out: &mut Vec<Vec<String>>| {
        let start = cmd.iter().position(|w| !is_assignment(w)).unwrap_or(cmd.len());
        let c: Vec<String> = cmd.drain(..).skip(start).collect();
        if !c.is_empty() {
            out.push(c);
        }
    };
    for w in ws {
        if matches!(w.as_str(), "|" | "||" | "&&" | ";") {
            flush(&mut cmd, out);
            continue;
        }
        if w.starts_with("smtstorm ") {
            split_commands(words(&w), out);
        }
        match w.strip_suffix(';') {
            Some(head) => {
                cmd.push(head.to_string());
                flush(&mut cmd, out);
            }
            None => cmd.push(w),
        }
    }
    flush(&mut cmd, out);
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.starts_with('-')
    })
}

/// The flags a command line uses (before a lone `--`, after which the words belong to the
/// interestingness command), without `[`/`(` of usage lines or `=value`.
fn flags(args: &[String]) -> Vec<String> {
    let mut out = vec![];
    for a in args.iter().take_while(|a| a.as_str() != "--") {
        let a = a.trim_start_matches(['[', '(']);
        let a = a.split('=').next().unwrap_or(a);
        let a = a.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-'));
        let long = a.len() > 2 && a.starts_with("--") && a.as_bytes()[2].is_ascii_alphabetic();
        let short = a.len() == 2 && a.starts_with('-') && a.as_bytes()[1].is_ascii_alphabetic();
        if long || short {
            out.push(a.to_string());
        }
    }
    out
}

/// Whether `help` lists `flag` as a flag (not as part of a longer one).
fn lists_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(i, _)| {
        let before = help[..i].chars().next_back();
        let after = help[i + flag.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// `smtstorm [SUB] --help`, once per subcommand.
struct Helps(BTreeMap<String, Option<String>>);

impl Helps {
    fn get(&mut self, sub: &str) -> Option<&str> {
        self.0
            .entry(sub.to_string())
            .or_insert_with(|| {
                let mut c = Command::new(common::bin());
                if !sub.is_empty() {
                    c.arg(sub);
                }
                let out = c.arg("--help").output().expect("run smtstorm --help");
                out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
            })
            .as_deref()
    }
}

/// What is wrong with one command line, if it is a smtstorm or scripts/ command:
/// `None` when it is neither, `Some(errors)` (empty when fine) when it was checked.
fn check_command(cmd: &[String], helps: &mut Helps) -> Option<Vec<String>> {
    let prog = cmd.first()?;
    let root = common::repo();
    if prog == "smtstorm" || prog.ends_with("/smtstorm") {
        let args = &cmd[1..];
        let sub = args.first().filter(|a| !a.starts_with('-')).map_or("", |s| s.as_str());
        let Some(help) = helps.get(sub).map(str::to_owned) else {
            return Some(vec![format!("`smtstorm {sub}` is not a subcommand of this build")]);
        };
        let errors = flags(args)
            .into_iter()
            .filter(|f| !lists_flag(&help, f))
            .map(|f| format!("`smtstorm {sub} --help` does not list {f}"))
            .collect();
        return Some(errors);
    }
    if prog.starts_with("scripts/") {
        let path = root.join(prog);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Some(vec![format!("{prog} does not exist")]);
        };
        let mut errors = vec![];
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map(|m| m.permissions().mode()).unwrap_or(0);
            if mode & 0o111 == 0 {
                errors.push(format!("{prog} is not executable"));
            }
        }
        for f in flags(&cmd[1..]) {
            if !lists_flag(&text, &f) {
                errors.push(format!("{prog} does not handle {f}"));
            }
        }
        return Some(errors);
    }
    None
}

#[test]
fn every_documented_command_exists_in_this_build() {
    let mut helps = Helps(BTreeMap::new());
    // The checker must be able to fail: a flag or a subcommand this build lacks.
    for bad in ["smtstorm fuzz --out x --no-such-flag", "smtstorm no-such-subcommand --json", "scripts/no-such.sh"] {
        let c = commands(bad);
        let errors = check_command(&c[0], &mut helps).expect("checked");
        assert!(!errors.is_empty(), "{bad:?} passed the check");
    }
    let good = commands("SMTSTORM_SOLVERS_DIR=x smtstorm reduce in out -j 2 -- z3 -T:5 --foo && scripts/test.sh");
    assert_eq!(good.len(), 2, "{good:?}");
    assert_eq!(check_command(&good[0], &mut helps), Some(vec![]), "words after `--` are the command's");

    let mut checked = 0;
    let mut errors = vec![];
    for doc in docs() {
        let name = doc.path.strip_prefix(common::repo()).unwrap_or(&doc.path).display().to_string();
        for b in blocks(&doc.text).into_iter().filter(|b| b.lang == "sh" && !b.example) {
            for cmd in commands(&b.body) {
                if let Some(e) = check_command(&cmd, &mut helps) {
                    checked += 1;
                    errors.extend(e.into_iter().map(|e| format!("{name}:{}: {}: {e}", b.line, cmd.join(" "))));
                }
            }
        }
    }
    assert!(errors.is_empty(), "documented commands this build does not have:\n{}", errors.join("\n"));
    assert!(checked > 10, "only {checked} documented commands were checked");
    eprintln!("{checked} documented commands checked against this build");
}

/// Every top-level and `[storm]` key of a campaign definition, from the definition itself
/// (every optional one set, so that it is serialized).
fn campaign_keys() -> BTreeSet<String> {
    let mut cfg = smtstorm::campaign::Config {
        time: Some(1.0),
        mutants: Some(1),
        reference: Some("z3".into()),
        shard: Some("0/2".parse().unwrap()),
        ..Default::default()
    };
    cfg.triage = true;
    let v = serde_json::to_value(&cfg).unwrap();
    let mut keys = BTreeSet::new();
    for (k, v) in v.as_object().unwrap() {
        keys.insert(k.clone());
        if let Some(sub) = v.as_object() {
            keys.extend(sub.keys().map(|s| format!("{k}.{s}")));
        }
    }
    keys
}

/// The keys a TOML text sets, `[table]` keys as `table.key`.
fn toml_keys(text: &str) -> BTreeSet<String> {
    let t: toml::Table = toml::from_str(text).unwrap();
    let mut keys = BTreeSet::new();
    for (k, v) in &t {
        keys.insert(k.clone());
        if let Some(sub) = v.as_table() {
            keys.extend(sub.keys().map(|s| format!("{k}.{s}")));
        }
    }
    keys
}

#[test]
fn the_campaign_file_example_reads_and_names_every_key() {
    let mut examples = 0;
    for doc in docs() {
        for b in blocks(&doc.text).into_iter().filter(|b| b.lang == "toml") {
            let at = format!("{}:{}", doc.path.display(), b.line);
            // As written, and with its commented-out settings (`# time = 600`) switched on.
            let on: String = b
                .body
                .lines()
                .map(|l| match l.strip_prefix("# ") {
                    Some(rest) if rest.split_once(" = ").is_some_and(|(k, _)| !k.contains(' ')) => rest,
                    _ => l,
                })
                .map(|l| format!("{l}\n"))
                .collect();
            for text in [&b.body, &on] {
                let parsed: Result<smtstorm::campaign::Config, _> = toml::from_str(text);
                if let Err(e) = parsed {
                    panic!("{at}: not a campaign file: {}", e.message());
                }
            }
            let missing: Vec<String> = campaign_keys().difference(&toml_keys(&on)).cloned().collect();
            assert!(missing.is_empty(), "{at}: the campaign file example does not name {missing:?}");
            examples += 1;
        }
    }
    assert!(examples >= 1, "no campaign file example in README.md or docs/");
}

/// Pointers into the project's own tracker: "issue 22", "issues 7, 26", "session 19",
/// "(#27)".
fn work_item_refs(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let b = lower.as_bytes();
    let mut out = vec![];
    for word in ["issue", "session"] {
        for (i, _) in lower.match_indices(word) {
            if i > 0 && b[i - 1].is_ascii_alphanumeric() {
                continue;
            }
            let mut j = i + word.len();
            if b.get(j) == Some(&b's') {
                j += 1;
            }
            let ws = j;
            while b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                j += 1;
            }
            if b.get(j) == Some(&b'#') {
                j += 1;
            }
            if j > ws && b.get(j).is_some_and(u8::is_ascii_digit) {
                out.push(text[i..(j + 1).min(text.len())].to_string());
            }
        }
    }
    for (i, _) in lower.match_indices('#') {
        let before_ok = i == 0 || matches!(b[i - 1], b' ' | b'\n' | b'(' | b'[' | b',');
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let after = b.get(i + 1 + digits);
        if before_ok && digits > 0 && !after.is_some_and(|c| c.is_ascii_alphanumeric()) {
            out.push(text[i..i + 1 + digits].to_string());
        }
    }
    out
}

#[test]
fn no_page_names_numbered_internal_work_items() {
    // The detector must be able to fail.
    assert_eq!(work_item_refs("done (issue 22); see Session 19, issues 7, 26 and (#27)").len(), 4);
    assert!(work_item_refs("#b0 #x1F (_ bv5 8) `#smtstorm execs` tissue 3").is_empty());
    let mut found = vec![];
    for doc in docs() {
        for r in work_item_refs(&doc.text) {
            found.push(format!("{}: {r:?}", doc.path.display()));
        }
    }
    assert!(
        found.is_empty(),
        "numbered internal work items (history belongs in git and BENCHMARKS.md):\n{}",
        found.join("\n")
    );
}

/// What users read of the CLI itself: no subcommand's `--help` points into our tracker
/// either (`--tactics` said "issue 6 item 7").
#[test]
fn no_help_text_names_numbered_internal_work_items() {
    let help = |args: &[&str]| {
        let o = Command::new(common::bin()).args(args).output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let top = help(&["--help"]);
    let subs: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(subs.len() > 10, "{top}");
    let mut found = vec![];
    for sub in &subs {
        for r in work_item_refs(&help(&[sub, "--help"])) {
            found.push(format!("smtstorm {sub} --help: {r:?}"));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn readme_is_short() {
    let text = std::fs::read_to_string(common::repo().join("README.md")).unwrap();
    let n = text.lines().count();
    assert!(n <= README_MAX_LINES, "README.md has {n} lines, more than {README_MAX_LINES}: move detail into docs/");
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for l in text.lines() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && l.starts_with('#') {
            out.insert(slug(l.trim_start_matches('#')));
        }
    }
    out
}

/// `[text](target)` link targets of a Markdown text, outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = vec![];
    for l in text.lines() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, _) in l.match_indices("](") {
            if let Some(end) = l[i + 2..].find(')') {
                out.push(l[i + 2..i + 2 + end].split_whitespace().next().unwrap_or("").to_string());
            }
        }
    }
    out
}

#[test]
fn relative_links_point_at_files_and_headings_that_exist() {
    assert_eq!(slug(" BanditFuzz: performance fuzzing"), "banditfuzz-performance-fuzzing");
    let mut checked = 0;
    let mut broken = vec![];
    for doc in docs() {
        let dir = doc.path.parent().unwrap();
        for target in links(&doc.text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = target.split_once('#').map_or((target.as_str(), None), |(f, a)| (f, Some(a)));
            let path: &Path = if file.is_empty() { &doc.path } else { &dir.join(file) };
            if !path.exists() {
                broken.push(format!("{}: {target}: no such file", doc.path.display()));
                continue;
            }
            if let Some(a) = anchor {
                let text = std::fs::read_to_string(path).unwrap_or_default();
                if !anchors(&text).contains(a) {
                    broken.push(format!("{}: {target}: no such heading", doc.path.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 10, "only {checked} relative links checked");
}
