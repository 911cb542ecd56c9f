//! The crate's shape, read from its source: no two files import each other in a loop, and
//! every import between layers runs downward (board <- eval, tb <- search <- protocol,
//! tools <- cli), as DEVELOPERS.md draws it. Imports are read as text: each `crate::` or
//! `super::` path in a `use` or in code is followed to the file that defines it, through a
//! folder's `mod.rs` re-exports; unit tests inside a file (`#[cfg(test)] mod tests`) are not
//! part of the shape.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path (`["board", "position"]`) and the file that holds it.
type Modules = BTreeMap<Vec<String>, PathBuf>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every module file under src/ but the binary's root, by module path.
fn modules() -> Modules {
    let mut out = Modules::new();
    let mut stack = vec![src()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src()).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            match parts.last().map(String::as_str) {
                Some("main") if parts.len() == 1 => continue,
                Some("lib") if parts.len() == 1 => parts.clear(),
                Some("mod") => {
                    parts.pop();
                }
                _ => {}
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The file's text without comments and without its unit-test module.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// Expands `a::{b, c::{d, self}}` into `a::b`, `a::c::d`, `a::c`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let (Some(open), Some(close)) = (tree.find('{'), tree.rfind('}')) else { return vec![tree] };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..close];
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let mut out = Vec::new();
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        for path in expand(part) {
            out.push(if path == "self" {
                prefix.trim_end_matches("::").to_string()
            } else {
                format!("{prefix}{path}")
            });
        }
    }
    out
}

/// The paths a file names: those of its `use` items, expanded, and every `crate::`/`super::`
/// path in its code.
fn named_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let t = line.trim_start();
        let t = t.strip_prefix("pub ").or_else(|| t.strip_prefix("pub(crate) ")).unwrap_or(t);
        let Some(_) = t.strip_prefix("use ") else { continue };
        // The item runs to its `;`, over as many lines as it takes.
        let item: String = code.lines().skip(i).collect::<Vec<_>>().join(" ");
        let item = item.trim_start();
        let item = &item[item.find("use ").unwrap() + 4..];
        if let Some(end) = item.find(';') {
            out.extend(expand(&item[..end]));
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (i, _) in code.match_indices(start) {
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':') {
                continue;
            }
            let end =
                code[i..].find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).map_or(code.len(), |e| i + e);
            out.push(code[i..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The names a folder's `mod.rs` (or lib.rs) re-exports, each with the child module it
/// comes from.
fn reexports(code: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (i, _) in code.match_indices("pub use ") {
        let rest = &code[i + 8..];
        let Some(end) = rest.find(';') else { continue };
        for path in expand(&rest[..end]) {
            let parts: Vec<&str> = path.split("::").collect();
            if parts.len() >= 2 && !matches!(parts[0], "crate" | "super" | "std") {
                out.insert(parts.last().unwrap().to_string(), parts[0].to_string());
            }
        }
    }
    out
}

/// The file a path names, seen from the module `from`: the deepest module the path
/// reaches, or, for a name a folder re-exports, the child that defines it.
fn resolve(
    path: &str,
    from: &[String],
    modules: &Modules,
    faces: &BTreeMap<Vec<String>, BTreeMap<String, String>>,
) -> Option<Vec<String>> {
    let mut segs: Vec<&str> = path.split("::").collect();
    let mut base: Vec<String> = match segs.first()? {
        &"crate" => Vec::new(),
        &"super" | &"self" => {
            // `super` of a file module is its folder; `self` is the module itself.
            let mut b = from.to_vec();
            while let Some(&s) = segs.first() {
                match s {
                    "super" => {
                        b.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                segs.remove(0);
            }
            segs.insert(0, "");
            b
        }
        _ => return None,
    };
    for seg in segs.into_iter().skip(1) {
        let mut next = base.clone();
        next.push(seg.to_string());
        if modules.contains_key(&next) {
            base = next;
            continue;
        }
        if let Some(child) = faces.get(&base).and_then(|f| f.get(seg)) {
            let mut c = base.clone();
            c.push(child.clone());
            if modules.contains_key(&c) {
                base = c;
            }
        }
        break;
    }
    modules.contains_key(&base).then_some(base)
}

/// Every file-to-file import of the crate.
fn imports() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules = modules();
    let faces: BTreeMap<_, _> = modules.iter().map(|(m, p)| (m.clone(), reexports(&code(p)))).collect();
    let mut graph = BTreeMap::new();
    for (module, path) in &modules {
        let text = code(path);
        let mut to = BTreeSet::new();
        for named in named_paths(&text) {
            if let Some(target) = resolve(&named, module, &modules, &faces)
                && target != *module
                // A folder reaching into its own children is how it is built, not an import.
                && !target.starts_with(module)
            {
                to.insert(target);
            }
        }
        graph.insert(module.clone(), to);
    }
    graph
}

fn name(m: &[String]) -> String {
    if m.is_empty() { "lib".into() } else { m.join("::") }
}

#[test]
fn no_two_files_import_each_other_in_a_loop() {
    let graph = imports();
    // Tarjan's strongly connected components, iteratively small enough to do by recursion.
    struct State<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a [String], usize>,
        low: BTreeMap<&'a [String], usize>,
        stack: Vec<&'a [String]>,
        on: BTreeSet<&'a [String]>,
        loops: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a [String]) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_slice();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.push(name(w));
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.loops.push(comp);
            }
        }
    }
    let mut s = State {
        graph: &graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        loops: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_slice()) {
            visit(&mut s, v);
        }
    }
    assert!(s.loops.is_empty(), "files that import each other in a loop: {:?}", s.loops);
}

/// The layer of a top-level module: a module may import its own layer's and lower ones.
fn layer(top: &str) -> u32 {
    match top {
        "rng" | "host" => 0,
        "board" => 1,
        "eval" | "tb" => 2,
        "search" => 3,
        "protocol" | "tools" => 4,
        "cli" | "web" => 5,
        other => panic!("src/{other}: a top-level module DEVELOPERS.md does not place; add it to this test's layers"),
    }
}

#[test]
fn imports_between_layers_run_downward() {
    let mut wrong = Vec::new();
    for (from, tos) in imports() {
        let Some(top) = from.first() else { continue };
        for to in tos {
            let Some(to_top) = to.first() else { continue };
            let up = layer(to_top) > layer(top);
            // Protocol and tools stand side by side: neither may use the other.
            let across = to_top != top && layer(to_top) == layer(top) && layer(top) == 4;
            if up
                || across
                || (top != to_top && matches!((top.as_str(), to_top.as_str()), ("eval", "tb") | ("tb", "eval")))
            {
                wrong.push(format!("{} -> {}", name(&from), name(&to)));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers: {wrong:?}");
}

#[test]
fn the_reader_sees_the_imports_it_must() {
    // Guards the test itself: a reader that saw nothing would pass the two above.
    let graph = imports();
    let edge = |a: &str, b: &str| {
        let a: Vec<String> = a.split("::").map(String::from).collect();
        let b: Vec<String> = b.split("::").map(String::from).collect();
        graph.get(&a).is_some_and(|t| t.contains(&b))
    };
    assert!(edge("board::movegen", "board::sittuyin"), "use super::sittuyin::{{..}}");
    assert!(edge("board::sittuyin", "board::position"), "use super::position::Position");
    assert!(edge("search::worker", "board::position"), "crate::board::Position through board's re-export");
    assert!(edge("tb::registry", "tb::file"), "use super::file::{{self, Table}}");
    assert_eq!(expand("a::{b, c::{d, self}}"), ["a::b", "a::c::d", "a::c"]);
}
