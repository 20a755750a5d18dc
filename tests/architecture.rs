//! The editor's layers, counted from its sources: the library, then `src/app/context` (what
//! every panel stands on), the panels, the shell that assembles them, and the entry points
//! (`src/app/mod.rs` for the desktop, `src/app/web` for the page). Each count reads every file
//! under `src/app`, follows the module it is in (its file, then any inline `mod` block) and
//! resolves each path it writes (`use` trees with their braces, `crate::`, `self::` and
//! `super::` paths, paths through a child module, names given with `as`, glob imports, raw
//! identifiers), so an import that climbs out with `super::super::` or hides behind
//! `use crate::app as a;` counts as much as one spelled from `crate::`; `#[path]` and
//! `include!` are refused in `src/app`. Also here: every relative link of the README and
//! `docs/` leads to a file that exists, no panel uses another panel, the library does not name
//! the editor, and no file of the editor grows past its size budget.
//!
//! This binary reads files only; it does not link the editor.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A path written in a source file, resolved from the crate root (`["crate", "app", ...]`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Reference {
    /// The file, relative to the crate root.
    file: String,
    /// The line it is written on.
    line: usize,
    /// The resolved path.
    path: Vec<String>,
}

/// A token of Rust source with the line it starts on; comments and literals are dropped.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other(char),
}

/// Splits Rust source into tokens, leaving out comments, strings and character literals
/// (their words are not code); the attribute text `target_arch = "wasm32"` is reported apart
/// by [`mentions_wasm32`].
fn tokens(source: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            loop {
                if i + 1 >= chars.len() {
                    i = chars.len();
                    break;
                }
                if chars[i] == '/' && chars[i + 1] == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars[i + 1] == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if c == '"' || (c == 'b' && next == Some('"')) {
            i += if c == 'b' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '"' {
                line += usize::from(chars[i] == '\n');
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && raw_string_start(&chars[i..]).is_some()
        {
            let (skip, hashes) = raw_string_start(&chars[i..]).unwrap_or_default();
            i += skip;
            while i < chars.len() {
                if chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|&h| h == '#') {
                    i += 1 + hashes;
                    break;
                }
                line += usize::from(chars[i] == '\n');
                i += 1;
            }
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
            let literal_end = if next == Some('\\') {
                chars
                    .get(i + 3..)
                    .and_then(|rest| rest.iter().position(|&ch| ch == '\''))
                    .map(|p| i + 4 + p)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match literal_end {
                Some(end) => i = end,
                None => {
                    out.push((Token::Other('\''), line));
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            // A raw identifier (`r#shell`) is the name after its `r#`.
            let raw = c == 'r'
                && next == Some('#')
                && chars
                    .get(i + 2)
                    .is_some_and(|&ch| ch.is_alphabetic() || ch == '_');
            let start = if raw { i + 2 } else { i };
            i = start;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            out.push((Token::Ident(word), line));
        } else if c == ':' && next == Some(':') {
            out.push((Token::PathSep, line));
            i += 2;
        } else {
            out.push((
                match c {
                    '{' => Token::Open,
                    '}' => Token::Close,
                    ',' => Token::Comma,
                    ';' => Token::Semi,
                    '*' => Token::Star,
                    other => Token::Other(other),
                },
                line,
            ));
            i += 1;
        }
    }
    out
}

/// At a raw string (`r"`, `r#"`, `br##"`...): how many characters open it and its `#`s.
fn raw_string_start(chars: &[char]) -> Option<(usize, usize)> {
    let mut i = usize::from(chars.first() == Some(&'b'));
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    (chars.get(i + hashes) == Some(&'"')).then_some((i + hashes + 1, hashes))
}

/// Whether the code (not a comment) has `target_arch = "wasm32"`: in a `cfg` attribute or
/// a `cfg!` call.
fn mentions_wasm32(source: &str) -> bool {
    source.lines().any(|line| {
        let code = line.split("//").next().unwrap_or("");
        let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        compact.contains("target_arch=\"wasm32\"")
    })
}

/// The module a file is, from its path under `src/` (`app/canvas/mod.rs` is
/// `crate::app::canvas`, `app/canvas/view.rs` is `crate::app::canvas::view`).
fn module_of(relative: &Path) -> Vec<String> {
    let mut module = vec!["crate".to_string()];
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            let stem = part.trim_end_matches(".rs");
            if stem != "mod" && stem != "lib" {
                module.push(stem.to_string());
            }
        } else {
            module.push(part.clone());
        }
    }
    module
}

/// A path as written at one place: the module it is written in, its names, its line, and in
/// a `use` the name it is imported as (`as a`) or whether it imports everything (`::*`).
#[derive(Clone, Debug, Default)]
struct Written {
    here: Vec<String>,
    names: Vec<String>,
    line: usize,
    alias: Option<String>,
    glob: bool,
}

/// Every path written in `source` (a file that is module `module`), resolved from the crate
/// root. `children` says which names are modules of the crate below a given module, so a
/// path through a child module (`shell::app::SpratApp` in `app/mod.rs`) resolves as well;
/// any other first name is another crate or a local item, and is left out. A name imported
/// with `as` stands for what it imports, and after `use path::*;` a child module of `path`
/// may be written bare, so neither hides a path.
fn references(
    file: &str,
    module: &[String],
    source: &str,
    children: &dyn Fn(&[String], &str) -> bool,
) -> Vec<Reference> {
    let tokens = tokens(source);
    let mut written = Vec::new();
    // The module each open brace belongs to: inline `mod name { ... }` blocks nest.
    let mut scopes: Vec<Option<String>> = Vec::new();
    let current = |scopes: &[Option<String>]| -> Vec<String> {
        let mut here = module.to_vec();
        here.extend(scopes.iter().flatten().cloned());
        here
    };
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i].0 {
            Token::Open => {
                let inline_module = match (i.checked_sub(2).map(|j| &tokens[j].0), &tokens[i - 1].0)
                {
                    (Some(Token::Ident(m)), Token::Ident(name)) if m == "mod" => Some(name.clone()),
                    _ => None,
                };
                scopes.push(inline_module);
                i += 1;
            }
            Token::Close => {
                scopes.pop();
                i += 1;
            }
            // A module declared (`mod web;`, `mod tests {`) is no use of it.
            Token::Ident(_) if i > 0 && tokens[i - 1].0 == Token::Ident("mod".into()) => i += 1,
            Token::Ident(_) if i == 0 || tokens[i - 1].0 != Token::PathSep => {
                let in_use = i > 0 && tokens[i - 1].0 == Token::Ident("use".into());
                let mut leaves = Vec::new();
                let end = path_tree(&tokens, i, Vec::new(), in_use, &mut leaves);
                let here = current(&scopes);
                written.extend(leaves.into_iter().map(|leaf| Written {
                    here: here.clone(),
                    ..leaf
                }));
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    // What each `as` name and glob stands for; a name may be imported through another
    // (`use crate::app as a; use a::shell as s;`), so this runs until nothing changes.
    let mut aliases: Vec<(String, Vec<String>)> = Vec::new();
    let mut globs: Vec<Vec<String>> = Vec::new();
    loop {
        let before = (aliases.len(), globs.len());
        for w in &written {
            let Some(path) = resolve_written(w, &aliases, &globs, children) else {
                continue;
            };
            if let Some(alias) = &w.alias
                && !aliases.iter().any(|(name, _)| name == alias)
            {
                aliases.push((alias.clone(), path));
            } else if w.glob && !globs.contains(&path) {
                globs.push(path);
            }
        }
        if (aliases.len(), globs.len()) == before {
            break;
        }
    }
    written
        .iter()
        .filter_map(|w| {
            resolve_written(w, &aliases, &globs, children).map(|path| Reference {
                file: file.to_string(),
                line: w.line,
                path,
            })
        })
        .collect()
}

/// A written path from the crate root: through an `as` name, as written, or below a module
/// imported whole.
fn resolve_written(
    w: &Written,
    aliases: &[(String, Vec<String>)],
    globs: &[Vec<String>],
    children: &dyn Fn(&[String], &str) -> bool,
) -> Option<Vec<String>> {
    let first = w.names.first()?;
    if let Some((_, target)) = aliases.iter().find(|(name, _)| name == first) {
        let mut path = target.clone();
        path.extend(w.names[1..].iter().cloned());
        return Some(path);
    }
    resolve(&w.here, &w.names, children).or_else(|| {
        globs.iter().find(|base| children(base, first)).map(|base| {
            let mut path = base.clone();
            path.extend(w.names.iter().cloned());
            path
        })
    })
}

/// Reads the path (tree) starting at token `start`: `a::b::c`, `a::{b, c::{d, e}}`, `a::*`,
/// and in a `use`, `a::b as c`. Each complete path goes into `leaves` with its line; returns
/// the token after the tree.
fn path_tree(
    tokens: &[(Token, usize)],
    start: usize,
    prefix: Vec<String>,
    in_use: bool,
    leaves: &mut Vec<Written>,
) -> usize {
    let mut path = prefix;
    let mut i = start;
    let line = tokens[start].1;
    let mut glob = false;
    loop {
        match tokens.get(i).map(|t| &t.0) {
            // `a::{self, b}`: `self` is `a` itself.
            Some(Token::Ident(name)) if name == "self" && !path.is_empty() => i += 1,
            Some(Token::Ident(name)) => {
                path.push(name.clone());
                i += 1;
            }
            Some(Token::Star) => {
                glob = true;
                i += 1;
                break;
            }
            Some(Token::Open) if !path.is_empty() && tokens[i - 1].0 == Token::PathSep => {
                i += 1;
                loop {
                    match tokens.get(i).map(|t| &t.0) {
                        Some(Token::Close) => {
                            i += 1;
                            break;
                        }
                        Some(Token::Comma) => i += 1,
                        Some(Token::Ident(_)) => {
                            i = path_tree(tokens, i, path.clone(), in_use, leaves)
                        }
                        Some(Token::Star) => {
                            leaves.push(Written {
                                names: path.clone(),
                                line: tokens[i].1,
                                glob: true,
                                ..Written::default()
                            });
                            i += 1;
                        }
                        Some(_) => i += 1,
                        None => break,
                    }
                }
                return i;
            }
            _ => break,
        }
        if tokens.get(i).map(|t| &t.0) == Some(&Token::PathSep) {
            i += 1;
        } else {
            break;
        }
    }
    let mut alias = None;
    if in_use && tokens.get(i).map(|t| &t.0) == Some(&Token::Ident("as".into())) {
        if let Some((Token::Ident(name), _)) = tokens.get(i + 1) {
            alias = (name != "_").then(|| name.clone());
        }
        i += 2;
    }
    leaves.push(Written {
        names: path,
        line,
        alias,
        glob,
        ..Written::default()
    });
    i
}

/// The path `written` in module `here`, from the crate root; `None` for another crate's path
/// or a local name.
fn resolve(
    here: &[String],
    written: &[String],
    children: &dyn Fn(&[String], &str) -> bool,
) -> Option<Vec<String>> {
    let first = written.first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => return Some(written.to_vec()),
        "self" => here.to_vec(),
        "super" => here.to_vec(),
        name if children(here, name) => here.to_vec(),
        _ => return None,
    };
    let mut rest = written;
    if first == "self" {
        rest = &written[1..];
    }
    while rest.first().map(String::as_str) == Some("super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The editor's sources: each file under `src/app` (relative to the crate root), its module
/// and its text.
fn app_sources() -> Vec<(String, Vec<String>, String)> {
    crate_sources()
        .into_iter()
        .filter(|(file, _, _)| file.starts_with("src/app/"))
        .collect()
}

/// Every source file of the crate under `src/` (relative to the crate root), its module and
/// its text.
fn crate_sources() -> Vec<(String, Vec<String>, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect_rust_files(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(root.join("src")).unwrap().to_path_buf();
            let text = std::fs::read_to_string(&path).unwrap();
            (
                format!("src/{}", relative.display()),
                module_of(&relative),
                text,
            )
        })
        .collect()
}

fn collect_rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `name` is a module of the crate directly below `module` (a file or folder there).
fn is_crate_child(module: &[String], name: &str) -> bool {
    if module.first().map(String::as_str) != Some("crate") {
        return false;
    }
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for part in &module[1..] {
        dir.push(part);
    }
    dir.join(format!("{name}.rs")).is_file() || dir.join(name).join("mod.rs").is_file()
}

/// Every path each file of the editor writes, resolved.
fn app_references() -> Vec<Reference> {
    app_sources()
        .iter()
        .flat_map(|(file, module, text)| references(file, module, text, &is_crate_child))
        .collect()
}

/// The names `src/app/mod.rs` re-exports from the shell (`crate::app::SpratApp` is the
/// shell's as much as `crate::app::shell::app::SpratApp`).
fn shell_reexports() -> BTreeSet<String> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app/mod.rs"))
            .unwrap();
    let module = vec!["crate".to_string(), "app".to_string()];
    let mut names = BTreeSet::new();
    for statement in text.split(';') {
        let statement = statement.trim_start();
        let Some(rest) = statement.strip_prefix("pub use ") else {
            continue;
        };
        for reference in references("src/app/mod.rs", &module, rest, &is_crate_child) {
            if reference
                .path
                .starts_with(&["crate".into(), "app".into(), "shell".into()])
            {
                names.extend(reference.path.last().cloned());
            }
        }
    }
    names
}

fn is_under(file: &str, folder: &str) -> bool {
    file.starts_with(&format!("src/app/{folder}/"))
}

const ENTRY: &str = "src/app/mod.rs";
/// The native platform: the one file beside `web/` and the entry that may know the target.
const NATIVE_PLATFORM: &str = "src/app/shell/native_platform.rs";

fn refers_to_shell(path: &[String], reexports: &BTreeSet<String>) -> bool {
    path.len() >= 3
        && path[0] == "crate"
        && path[1] == "app"
        && (path[2] == "shell" || reexports.contains(&path[2]))
}

fn listed(references: &[Reference]) -> String {
    references
        .iter()
        .map(|r| format!("  {}:{}: {}", r.file, r.line, r.path.join("::")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// (a) Nothing in the editor but the shell and the entry points uses the shell.
#[test]
fn only_the_entry_points_use_the_shell() {
    let reexports = shell_reexports();
    let found: Vec<Reference> = app_references()
        .into_iter()
        .filter(|r| !is_under(&r.file, "shell") && !is_under(&r.file, "web") && r.file != ENTRY)
        .filter(|r| refers_to_shell(&r.path, &reexports))
        .collect();
    assert!(
        found.is_empty(),
        "{} uses of the shell:\n{}",
        found.len(),
        listed(&found)
    );
}

/// (b) Only `web/` knows the web page.
#[test]
fn only_the_web_page_knows_itself() {
    let found: Vec<Reference> = app_references()
        .into_iter()
        .filter(|r| !is_under(&r.file, "web"))
        .filter(|r| {
            r.path
                .starts_with(&["crate".into(), "app".into(), "web".into()])
        })
        .collect();
    assert!(
        found.is_empty(),
        "{} uses of web/:\n{}",
        found.len(),
        listed(&found)
    );
}

/// (c) The target is known in `web/`, the native platform and the entry only.
#[test]
fn only_the_platforms_know_the_target() {
    let found: Vec<String> = app_sources()
        .into_iter()
        .filter(|(file, _, _)| !is_under(file, "web") && file != ENTRY && file != NATIVE_PLATFORM)
        .filter(|(_, _, text)| mentions_wasm32(text))
        .map(|(file, _, _)| file)
        .collect();
    assert!(
        found.is_empty(),
        "{} files name target_arch = \"wasm32\": {found:?}",
        found.len()
    );
}

/// (d) The context stands on the library and egui alone.
#[test]
fn the_context_uses_nothing_else_of_the_editor() {
    let found: Vec<Reference> = app_references()
        .into_iter()
        .filter(|r| is_under(&r.file, "context"))
        .filter(|r| r.path.len() >= 2 && r.path[0] == "crate" && r.path[1] == "app")
        .filter(|r| r.path.get(2).map(String::as_str) != Some("context"))
        .collect();
    assert!(
        found.is_empty(),
        "{} uses of the editor from the context:\n{}",
        found.len(),
        listed(&found)
    );
}

/// The panels: every folder of `src/app` but the context, the shell and the web page.
fn panels() -> Vec<String> {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut names: Vec<String> = std::fs::read_dir(app)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .filter_map(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|name| !["context", "shell", "web"].contains(&name.as_str()))
        .collect();
    names.sort();
    names
}

/// (e) No panel uses another panel: what two panels share belongs in the context.
#[test]
fn no_panel_uses_another_panel() {
    let panels = panels();
    assert!(panels.len() >= 5, "the panels are found: {panels:?}");
    let found: Vec<Reference> = app_references()
        .into_iter()
        .filter(|r| {
            let Some(own) = panels.iter().find(|p| is_under(&r.file, p)) else {
                return false;
            };
            r.path.len() >= 3
                && r.path[0] == "crate"
                && r.path[1] == "app"
                && r.path[2] != *own
                && panels.contains(&r.path[2])
        })
        .collect();
    assert!(
        found.is_empty(),
        "{} uses of another panel's insides (move what they share to src/app/context):\n{}",
        found.len(),
        listed(&found)
    );
}

/// The files of the library that may name the editor: the desktop program's entry.
const LIBRARY_ENTRY_POINTS: [&str; 1] = ["src/main.rs"];

/// (f) The library stands below the editor: no file outside `src/app` (but the program's entry
/// point) names `crate::app`, however the path is written.
#[test]
fn the_library_does_not_name_the_editor() {
    let library: Vec<_> = crate_sources()
        .into_iter()
        .filter(|(file, _, _)| !file.starts_with("src/app/"))
        .filter(|(file, _, _)| !LIBRARY_ENTRY_POINTS.contains(&file.as_str()))
        .collect();
    assert!(
        library.len() > 100,
        "the library is found: {}",
        library.len()
    );
    let found: Vec<Reference> = library
        .iter()
        .flat_map(|(file, module, text)| references(file, module, text, &is_crate_child))
        .filter(|r| r.path.len() >= 2 && r.path[0] == "crate" && r.path[1] == "app")
        .collect();
    assert!(
        found.is_empty(),
        "{} uses of the editor from the library:\n{}",
        found.len(),
        listed(&found)
    );
}

/// Where `source` brings in code the path reader would not see as a module of its own: a
/// `#[path = ...]` attribute (a module read from another folder) or an `include!` (another
/// file's text pasted in). Each: its line and what it is.
fn hidden_code(source: &str) -> Vec<(usize, &'static str)> {
    let tokens = tokens(source);
    let mut found = Vec::new();
    // How deep in the brackets of an attribute (`#[...]`, `#![...]`) the reader is.
    let mut attribute_depth = 0usize;
    for (i, (token, line)) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).map(|t| &t.0);
        match token {
            Token::Other('[') if attribute_depth > 0 => attribute_depth += 1,
            Token::Other('[') => {
                let opens_attribute = match i.checked_sub(1).map(|j| &tokens[j].0) {
                    Some(Token::Other('#')) => true,
                    Some(Token::Other('!')) => i >= 2 && tokens[i - 2].0 == Token::Other('#'),
                    _ => false,
                };
                attribute_depth = usize::from(opens_attribute);
            }
            Token::Other(']') => attribute_depth = attribute_depth.saturating_sub(1),
            Token::Ident(name)
                if name == "path" && attribute_depth > 0 && next == Some(&Token::Other('=')) =>
            {
                found.push((*line, "#[path = ...]"));
            }
            Token::Ident(name) if name == "include" && next == Some(&Token::Other('!')) => {
                found.push((*line, "include!"));
            }
            _ => {}
        }
    }
    found
}

/// No file of the editor reads a module from elsewhere with `#[path]` or pastes a file in with
/// `include!`: the layer counts follow each file as the module its place says it is.
#[test]
fn the_editor_hides_no_code_from_the_counts() {
    let found: Vec<String> = app_sources()
        .into_iter()
        .flat_map(|(file, _, text)| {
            hidden_code(&text)
                .into_iter()
                .map(move |(line, what)| format!("  {file}:{line}: {what}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "{} places in src/app bring in code by another path:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The longest a file of the editor may grow before it is split by job.
const MOST_LINES: usize = 764;

/// No file of the editor is past [`MOST_LINES`]; the five longest are printed.
#[test]
fn no_file_of_the_editor_is_past_the_size_budget() {
    let mut sizes: Vec<(usize, String)> = app_sources()
        .into_iter()
        .map(|(file, _, text)| (text.lines().count(), file))
        .collect();
    sizes.sort_by(|a, b| b.cmp(a));
    let longest: Vec<String> = sizes
        .iter()
        .take(5)
        .map(|(lines, file)| format!("  {file}: {lines}"))
        .collect();
    println!("the longest files of src/app:\n{}", longest.join("\n"));
    let over: Vec<&(usize, String)> = sizes.iter().filter(|(n, _)| *n > MOST_LINES).collect();
    assert!(
        over.is_empty(),
        "files of src/app past {MOST_LINES} lines (split them by job): {over:?}"
    );
}

/// The counts see what they must: every way of writing a use of the shell is found, and what
/// only looks like one is not.
#[test]
fn the_reader_finds_every_way_of_writing_a_path() {
    let module: Vec<String> = ["crate", "app", "canvas", "tools", "hang"]
        .map(String::from)
        .to_vec();
    let source = r#"
        //! Not code: crate::app::shell::one
        pub mod shell;
        use super::super::super::shell::dialogs::Dialogs;
        use crate::app::{context::document::OpenDocument, shell::{loader, tabs::TabId}};
        use crate::app::SpratApp;
        use egui::Ui;
        const TEXT: &str = "crate::app::shell::two";
        fn f() { let c = 'x'; crate::app::shell::status_bar::show(); }
        mod tests {
            use super::super::super::super::web::page;
        }
    "#;
    let found = references("x.rs", &module, source, &|_, _| false);
    let paths: Vec<String> = found.iter().map(|r| r.path.join("::")).collect();
    assert_eq!(
        paths,
        [
            "crate::app::shell::dialogs::Dialogs",
            "crate::app::context::document::OpenDocument",
            "crate::app::shell::loader",
            "crate::app::shell::tabs::TabId",
            "crate::app::SpratApp",
            "crate::app::shell::status_bar::show",
            "crate::app::web::page",
        ]
    );
    let reexports = BTreeSet::from(["SpratApp".to_string()]);
    let to_shell = found
        .iter()
        .filter(|r| refers_to_shell(&r.path, &reexports))
        .count();
    assert_eq!(to_shell, 5);
    assert!(mentions_wasm32(
        "#[cfg(not(target_arch = \"wasm32\"))]\nfn f() {}"
    ));
    assert!(!mentions_wasm32("// target_arch = \"wasm32\" in a comment"));
}

/// The modules of a small made-up editor, for the cases below: `crate::app` holds `shell`
/// (with `status_bar`) and `canvas` (with `tools`).
fn made_up_child(module: &[String], name: &str) -> bool {
    let module: Vec<&str> = module.iter().map(String::as_str).collect();
    matches!(
        (module.as_slice(), name),
        (["crate"], "app" | "cache")
            | (["crate", "app"], "shell" | "canvas")
            | (["crate", "app", "shell"], "status_bar")
            | (["crate", "app", "canvas"], "tools")
    )
}

/// The paths `source` writes as a file of `module` (`crate::app::canvas::tools` unless said)
/// in the made-up editor.
fn paths_in(module: &[&str], source: &str) -> Vec<String> {
    let module: Vec<String> = module.iter().map(|m| m.to_string()).collect();
    references("x.rs", &module, source, &made_up_child)
        .into_iter()
        .map(|r| r.path.join("::"))
        .collect()
}

const TOOLS: [&str; 4] = ["crate", "app", "canvas", "tools"];
const SHOW: &str = "crate::app::shell::status_bar::show";

/// A glob import, then a child module written bare: `use crate::app::*;` then `shell::…`.
#[test]
fn the_reader_follows_a_glob_import() {
    let paths = paths_in(
        &TOOLS,
        "use crate::app::*;\nfn f() { shell::status_bar::show(); }",
    );
    assert!(paths.contains(&SHOW.to_string()), "{paths:?}");
    let nested = paths_in(
        &TOOLS,
        "use crate::{app::*, model};\nfn f() { shell::status_bar::show(); }",
    );
    assert!(nested.contains(&SHOW.to_string()), "{nested:?}");
}

/// A name given with `as`: `use crate::app as a;` then `a::shell::…`, also in braces, through
/// `self`, and through a second name.
#[test]
fn the_reader_follows_an_import_under_another_name() {
    for source in [
        "use crate::app as a;\nfn f() { a::shell::status_bar::show(); }",
        "use crate::{app::shell as s, model};\nfn f() { s::status_bar::show(); }",
        "use crate::app::{self as a};\nfn f() { a::shell::status_bar::show(); }",
        "use b::shell as s;\nuse crate::app as b;\nfn f() { s::status_bar::show(); }",
    ] {
        let paths = paths_in(&TOOLS, source);
        assert!(paths.contains(&SHOW.to_string()), "{source}: {paths:?}");
    }
    // A cast is no import: `as` outside a `use` names nothing.
    let cast = paths_in(
        &TOOLS,
        "fn f() { let n = self::count as a; a::shell::x(); }",
    );
    assert!(!cast.iter().any(|p| p.contains("shell")), "{cast:?}");
}

/// A raw identifier is the name it spells: `crate::app::r#shell`.
#[test]
fn the_reader_reads_raw_identifiers() {
    let paths = paths_in(
        &TOOLS,
        "fn f() { crate::app::r#shell::status_bar::show(); }",
    );
    assert_eq!(paths, [SHOW]);
    let used = paths_in(&TOOLS, "use crate::r#app::{r#shell::r#status_bar};");
    assert_eq!(used, ["crate::app::shell::status_bar"]);
}

/// `#[path = ...]` and `include!` are found, in any attribute form; a variable named `path`
/// and `include_str!` are not.
#[test]
fn the_reader_finds_code_brought_in_by_another_path() {
    let found = hidden_code(
        "#[path = \"../shell/status_bar.rs\"]\nmod x;\n\
         #[cfg_attr(unix, path = \"u.rs\")]\nmod y;\n\
         include!(\"../shell/status_bar.rs\");\n",
    );
    assert_eq!(
        found,
        [(1, "#[path = ...]"), (3, "#[path = ...]"), (5, "include!")]
    );
    let plain = "fn f(mut path: u8) { path = 2; let _ = [path]; }\n\
                 const T: &str = include_str!(\"a.txt\");\n#[doc = \"path = x\"]\nfn g() {}";
    assert_eq!(hidden_code(plain), []);
}

/// A library file naming the editor is found however it writes the path: from the root, by
/// `super::`, through a child module of `lib.rs`.
#[test]
fn the_reader_finds_the_editor_named_from_the_library() {
    assert_eq!(
        paths_in(&["crate", "cache"], "use super::app::shell;"),
        ["crate::app::shell"]
    );
    assert_eq!(
        paths_in(&["crate"], "fn f() { app::shell::status_bar::show(); }"),
        [SHOW]
    );
}

/// Every relative link in the README and `docs/` leads to a file that exists, and to a
/// heading of it when it names one (`docs/editor.md#the-canvas`).
#[test]
fn every_relative_link_of_the_docs_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    collect_markdown(&root.join("docs"), &mut pages);
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in markdown_links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !linked.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if let Some(anchor) = anchor.filter(|_| linked.extension().is_some_and(|e| e == "md")) {
                let headings = std::fs::read_to_string(&linked).unwrap();
                if !heading_anchors(&headings).contains(anchor) {
                    broken.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(checked > 0, "the README links nowhere");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

fn collect_markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_markdown(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The targets of the inline links and images (`[text](target)`, `![alt](target "title")`)
/// outside code blocks and code spans.
fn markdown_links(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Code spans are not links.
        let outside_code: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = outside_code.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else {
                break;
            };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            if !target.is_empty() {
                targets.push(target.to_string());
            }
            rest = &after[end..];
        }
    }
    targets
}

/// The anchors GitHub gives a page's headings: lower case, spaces to `-`, punctuation but
/// `-` and `_` left out.
fn heading_anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let anchor: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        anchors.insert(anchor);
    }
    anchors
}
