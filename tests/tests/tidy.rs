//! Tidy checks over the whole source tree (after rust-analyzer's
//! `xtask/src/tidy.rs`): every Rust source file opens with a `//!` header that
//! says what it is, no file carries a stub or an ignored test, the repository
//! stands alone (no file names a path outside the workspace, no comment or
//! doc cites the project's private records: seeds, issue numbers, the
//! specification's files), files and functions under `crates/` stay short,
//! the facade re-exports items by name, and no code is `unsafe`.
//!
//! Each check is its own test and names every offending file and line, so
//! one report lists all there is to fix.

use std::path::{Path, PathBuf};

use regex::Regex;

/// The most lines a file under `crates/` may have, unit tests included.
const MAX_FILE_LINES: usize = 1_000;

/// The most lines a function under `crates/` may span, from the line of its
/// `fn` to the line of its closing brace, both included.
const MAX_FN_LINES: usize = 150;

/// The workspace root: this package lives in `<root>/tests`.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Every file below `dir` whose name `keep` accepts, sorted. Build output
/// (`target`, `target-*`) and git's own folder are passed over.
fn files_below(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&str) -> bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if path.is_dir() {
                if name != "target" && !name.starts_with("target-") && name != ".git" {
                    walk(&path, keep, out);
                }
            } else if keep(&name) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, keep, &mut out);
    out.sort();
    out
}

/// Every `.rs` file of the workspace, sorted.
fn rust_sources() -> Vec<PathBuf> {
    files_below(&workspace_root(), &|name| name.ends_with(".rs"))
}

/// Every `.rs` file under `crates/`, sorted.
fn crate_sources() -> Vec<PathBuf> {
    files_below(&workspace_root().join("crates"), &|name| {
        name.ends_with(".rs")
    })
}

/// Every file a person or a tool reads as source or documentation: Rust,
/// manifests and configuration, scripts (the CI script `run` included) and
/// Markdown.
fn text_sources() -> Vec<PathBuf> {
    files_below(&workspace_root(), &|name| {
        [".rs", ".toml", ".md", ".sh"]
            .iter()
            .any(|ext| name.ends_with(ext))
            || name == "run"
    })
}

/// `path` relative to the workspace root, for reports.
fn shown(path: &Path) -> String {
    path.strip_prefix(workspace_root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", shown(path)))
}

/// Asserts that a check found nothing, listing what it found.
fn assert_none(what: &str, hits: &[String]) {
    assert!(
        hits.is_empty(),
        "{what} ({} found):\n{}",
        hits.len(),
        hits.join("\n")
    );
}

/// Every line of `paths` that one of `patterns` matches, as
/// `path:line: what: text`.
fn lines_matching(paths: &[PathBuf], patterns: &[(&str, Regex)]) -> Vec<String> {
    let mut hits = Vec::new();
    for path in paths {
        for (n, line) in read(path).lines().enumerate() {
            for (what, pattern) in patterns {
                if pattern.is_match(line) {
                    hits.push(format!(
                        "{}:{}: {what}: {}",
                        shown(path),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    hits
}

/// The code of each line of a Rust source: comments removed, the contents of
/// string and character literals removed (their quotes kept), so that
/// keywords and braces are the program's own.
fn code_lines(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut lines = vec![String::new()];
    let mut i = 0;
    // Pushes `c` (a newline starts the next line) when `keep`.
    let emit = |lines: &mut Vec<String>, c: char, keep: bool| {
        if c == '\n' {
            lines.push(String::new());
        } else if keep {
            lines.last_mut().expect("one line at least").push(c);
        }
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let starts_token = i == 0 || !ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    emit(&mut lines, chars[i], false);
                    i += 1;
                }
            }
        } else if starts_token && raw_string_at(&chars, i).is_some() {
            let (open_len, hashes) = raw_string_at(&chars, i).expect("checked");
            let closing: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            emit(&mut lines, '"', true);
            i += open_len;
            while i < chars.len() && !chars[i..].starts_with(&closing) {
                emit(&mut lines, chars[i], false);
                i += 1;
            }
            emit(&mut lines, '"', true);
            i += closing.len();
        } else if c == '"' {
            emit(&mut lines, '"', true);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if let Some(&inner) = chars.get(i) {
                    emit(&mut lines, inner, false);
                }
                i += 1;
            }
            emit(&mut lines, '"', true);
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal (a lifetime or label has no closing quote
            // two places on and no escape).
            // Past the opening quote, and past an escape's backslash and the
            // character it escapes (which may be a quote).
            i += if next == Some('\\') { 3 } else { 1 };
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            lines.last_mut().expect("one line at least").push_str("' '");
            i += 1;
        } else {
            emit(&mut lines, c, true);
            i += 1;
        }
    }
    lines
}

/// At a raw string's opening (`r"`, `r#"`, `br##"`, ...): the length of the
/// opening and its number of `#`.
fn raw_string_at(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if chars.get(j) == Some(&'b') || chars.get(j) == Some(&'c') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|&&c| c == '#').count();
    (chars.get(j + hashes) == Some(&'"')).then_some((j + hashes + 1 - i, hashes))
}

/// Every function with a body in `code` (from [`code_lines`]): the index of
/// the line of its `fn`, its name and the number of lines to its closing
/// brace, both ends included.
fn function_spans(code: &[String]) -> Vec<(usize, String, usize)> {
    let fn_item = Regex::new(r"(?:^|[^\w$])fn\s+([A-Za-z_]\w*)").expect("valid pattern");
    let mut spans = Vec::new();
    for (start, line) in code.iter().enumerate() {
        for found in fn_item.captures_iter(line) {
            let name = found[1].to_owned();
            let after = found.get(0).expect("whole match").end();
            if let Some(end) = body_end(code, start, after) {
                spans.push((start, name, end - start + 1));
            }
        }
    }
    spans
}

/// The line of the brace that closes the body of the function whose
/// signature starts at `code[line][column..]`, or `None` for a declaration
/// without a body (`;` outside brackets before any `{`).
fn body_end(code: &[String], line: usize, column: usize) -> Option<usize> {
    let mut brackets = 0i32;
    let mut braces = 0i32;
    for (n, text) in code.iter().enumerate().skip(line) {
        let from = if n == line { column } else { 0 };
        for c in text[from..].chars() {
            match c {
                '(' | '[' if braces == 0 => brackets += 1,
                ')' | ']' if braces == 0 => brackets -= 1,
                ';' if braces == 0 && brackets == 0 => return None,
                '{' => braces += 1,
                '}' => {
                    braces -= 1;
                    if braces == 0 {
                        return Some(n);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

#[test]
fn the_tree_has_sources_to_check() {
    // Guards the walks themselves: an empty list would make the other checks vacuous.
    let sources = rust_sources();
    for expected in [
        "crates/math/src/lib.rs",
        "crates/parapet/src/lib.rs",
        "tests/tests/tidy.rs",
        "benches/src/lib.rs",
        "xtask/src/main.rs",
    ] {
        assert!(
            sources.iter().any(|p| p.ends_with(expected)),
            "walk found {} files but not {expected}",
            sources.len()
        );
    }
    let texts = text_sources();
    for expected in [".ci/run", "Cargo.toml", "docs/continuous-collision.md"] {
        assert!(
            texts.iter().any(|p| p.ends_with(expected)),
            "walk found {} text files but not {expected}",
            texts.len()
        );
    }
}

#[test]
fn the_lexer_sees_code_and_function_spans() {
    // Guards the lexer the unsafe and function checks rest on: a keyword in a
    // comment, a string or a raw string is not code, braces in literals do
    // not count, a lifetime is not a character literal, and a body's lines
    // run from `fn` to the brace that closes it.
    let text = concat!(
        "fn a<'x>(s: &'x str) -> [u8; 2] {\n",
        "    let _ = \"} unsafe {\"; // unsafe {\n",
        "    let _ = r#\"\"} {\"#; /* unsafe\n",
        "    { */ let _ = ('{', '\\'', '\\\\');\n",
        "    [0, 1]\n",
        "}\n",
        "trait T { fn b(&self); fn c() {} }\n",
    );
    let code = code_lines(text);
    assert!(code.iter().all(|line| !line.contains("unsafe")), "{code:?}");
    let spans = function_spans(&code);
    assert_eq!(
        spans,
        vec![(0, "a".to_owned(), 6), (6, "c".to_owned(), 1)],
        "{code:?}"
    );
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let mut missing = Vec::new();
    for path in rust_sources() {
        let text = read(&path);
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if !first.trim_start().starts_with("//!") {
            missing.push(shown(&path));
        }
    }
    assert_none("files without a `//!` header", &missing);
}

#[test]
fn no_source_file_holds_a_stub_or_an_ignored_test() {
    // Spelled in pieces so that this file does not match itself.
    let forbidden = [
        concat!("todo", "!("),
        concat!("unimplemented", "!("),
        concat!("#[", "ignore"),
        concat!("#[", "should_panic"),
        concat!("dbg", "!("),
    ];
    let mut hits = Vec::new();
    for path in rust_sources() {
        for (n, line) in read(&path).lines().enumerate() {
            for bad in forbidden {
                if line.contains(bad) {
                    hits.push(format!("{}:{}: {}", shown(&path), n + 1, line.trim()));
                }
            }
        }
    }
    assert_none("forbidden constructs", &hits);
}

#[test]
fn no_file_names_a_path_outside_the_workspace() {
    // The repository stands alone: its tests, benches, tools and docs read
    // and name only what is inside it (data sets are checked in under
    // tests/data with their licences).
    let patterns = [
        (
            "a sibling folder of the workspace",
            Regex::new(r"\.\./shared\b").expect("valid pattern"),
        ),
        (
            "data outside the workspace",
            Regex::new(r"\bshared/data\b").expect("valid pattern"),
        ),
        (
            "an absolute path of this machine",
            Regex::new(r"(?:^|[^\w./-])/wor[k](?:/|\b)").expect("valid pattern"),
        ),
    ];
    assert_none(
        "paths outside the workspace",
        &lines_matching(&text_sources(), &patterns),
    );
}

#[test]
fn no_comment_or_doc_cites_a_seed_an_issue_or_the_specification() {
    // Code and docs state the contract in the project's own words (or name a
    // section of docs/), and cite papers and other projects; they do not
    // cite the project's private records. Another project's issue
    // (`owner/name#123`, `name#123`) is a public source and stays allowed.
    let patterns = [
        (
            "a seed",
            Regex::new(r"(?i)\bseeds?\s+\d{3}\b").expect("valid pattern"),
        ),
        (
            "an issue",
            Regex::new(r"(?i)\bissues?\s+#?\d+\b").expect("valid pattern"),
        ),
        (
            "an issue number",
            Regex::new(r"(?:^|[^\w/.#&-])#\d+\b").expect("valid pattern"),
        ),
        (
            "a specification path",
            Regex::new(r"(?:^|[^\w.-])spe[c]/").expect("valid pattern"),
        ),
        (
            "the architecture notes",
            Regex::new(r"\bARCHITECTURE\.md\b").expect("valid pattern"),
        ),
    ];
    assert_none(
        "citations of the project's private records",
        &lines_matching(&text_sources(), &patterns),
    );
}

#[test]
fn no_file_under_crates_exceeds_the_line_limit() {
    let mut long = Vec::new();
    for path in crate_sources() {
        let lines = read(&path).lines().count();
        if lines > MAX_FILE_LINES {
            long.push(format!(
                "{}: {lines} lines (at most {MAX_FILE_LINES})",
                shown(&path)
            ));
        }
    }
    assert_none("files over the line limit", &long);
}

#[test]
fn no_function_under_crates_exceeds_the_line_limit() {
    let mut long = Vec::new();
    for path in crate_sources() {
        let code = code_lines(&read(&path));
        for (line, name, lines) in function_spans(&code) {
            if lines > MAX_FN_LINES {
                long.push(format!(
                    "{}:{}: fn {name}: {lines} lines (at most {MAX_FN_LINES})",
                    shown(&path),
                    line + 1
                ));
            }
        }
    }
    assert_none("functions over the line limit", &long);
}

#[test]
fn the_facade_re_exports_items_by_name() {
    // A glob re-export (`pub use some_crate::*`) makes the public API
    // whatever the inner crate happens to export; the facade names each item.
    let path = workspace_root().join("crates/parapet/src/lib.rs");
    let code = code_lines(&read(&path));
    let mut globs = Vec::new();
    let mut statement: Option<(usize, String)> = None;
    let public_use = Regex::new(r"^\s*pub\s+use\b").expect("valid pattern");
    for (n, line) in code.iter().enumerate() {
        if statement.is_none() && public_use.is_match(line) {
            statement = Some((n, String::new()));
        }
        if let Some((start, text)) = statement.as_mut() {
            text.push_str(line.trim());
            if line.contains(';') {
                if text.contains("::*") || text.contains("{*") || text.contains(" *") {
                    globs.push(format!("{}:{}: {text}", shown(&path), *start + 1));
                }
                statement = None;
            }
        }
    }
    assert_none("glob re-exports in the facade", &globs);
}

#[test]
fn no_code_is_unsafe() {
    // Every crate forbids `unsafe_code`; this also covers targets that do not
    // take the workspace lints.
    let keyword = Regex::new(r"\bunsafe\b").expect("valid pattern");
    let mut hits = Vec::new();
    for path in rust_sources() {
        for (n, line) in code_lines(&read(&path)).iter().enumerate() {
            if keyword.is_match(line) {
                hits.push(format!("{}:{}: {}", shown(&path), n + 1, line.trim()));
            }
        }
    }
    assert_none("unsafe code", &hits);
}
