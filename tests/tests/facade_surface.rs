//! The public surface of the facade (`parapet`) and of the CARLA
//! compatibility paths (`parapet_carla_compat`), as sorted `path kind` lines
//! snapshot with insta: adding, removing, renaming or moving a public item
//! that the facade reaches, in the facade or in a module it re-exports, is a
//! visible diff of `tests/tests/snapshots/facade_surface__*.snap` (review it
//! with `cargo insta review`, or rerun with `INSTA_UPDATE=always`).
//!
//! Method: the sources are parsed with `syn` and the paths resolved by hand,
//! as the compiler would for the constructs these crates use: `pub` items,
//! `pub mod` (inline or in `name.rs` / `name/mod.rs`, or at a `#[path]`),
//! `pub use` with groups, renames, `self` and globs, followed through private
//! modules and across the workspace's crates (named by their manifests);
//! paths into other crates (nalgebra) are listed, not followed. Rustdoc's
//! JSON output would be the compiler's own view but needs a nightly
//! toolchain; this runs on stable. Items under `#[cfg(test)]` or
//! `#[cfg(doctest)]` are not part of the surface; other `cfg`s, and
//! `#[non_exhaustive]` and `#[doc(hidden)]`, are written beside the item.
//! Not seen: items a macro generates (the crates define none) and enum
//! variants, fields and methods (the item's kind is listed, not its members).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::{Attribute, Item, UseTree, Visibility};

/// Deeper resolution than this is a cycle (a module re-exporting itself).
const MAX_DEPTH: usize = 32;

/// A module as loaded from source.
struct Module {
    /// The crate, as paths name it (`parapet_math`).
    krate: String,
    /// The module path inside the crate (empty for the root).
    path: Vec<String>,
    items: Vec<Item>,
    /// The directory of the file that holds the module (for `#[path]`).
    file_dir: PathBuf,
    /// The directory that holds the files of its `mod name;` children.
    child_dir: PathBuf,
}

/// What a name resolves to.
#[derive(Clone)]
enum Target {
    /// An item, with its kind and notes (`#[non_exhaustive]`, a `cfg`).
    Item { kind: &'static str, notes: String },
    /// A module of a workspace crate: `krate`, then the path inside it.
    Module(String, Vec<String>),
    /// A path into a crate outside the workspace.
    External(Vec<String>),
}

/// One name a `use` declaration brings in.
enum UseLeaf {
    /// `path` (its last segment the item) imported as `name`.
    Name { path: Vec<String>, name: String },
    /// Every public name of the module at `path`.
    Glob { path: Vec<String> },
}

/// The crates of a workspace: name (with `_`) to the root file.
struct Workspace {
    crates: BTreeMap<String, PathBuf>,
}

impl Workspace {
    /// The crates under `<root>/crates`, named by their manifests.
    fn of(root: &Path) -> Workspace {
        let mut crates = BTreeMap::new();
        for entry in std::fs::read_dir(root.join("crates"))
            .expect("crates/")
            .flatten()
        {
            let manifest = entry.path().join("Cargo.toml");
            let Ok(text) = std::fs::read_to_string(&manifest) else {
                continue;
            };
            let name = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("name = \""))
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("{}: no package name", manifest.display()));
            crates.insert(name.replace('-', "_"), entry.path().join("src/lib.rs"));
        }
        Workspace { crates }
    }

    fn parse(path: &Path) -> Vec<Item> {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .items
    }

    fn root(&self, krate: &str) -> Module {
        let file = &self.crates[krate];
        let dir = file.parent().expect("src/").to_path_buf();
        Module {
            krate: krate.to_owned(),
            path: Vec::new(),
            items: Self::parse(file),
            file_dir: dir.clone(),
            child_dir: dir,
        }
    }

    /// The module `path` of `krate`.
    fn module(&self, krate: &str, path: &[String]) -> Module {
        let mut m = self.root(krate);
        for seg in path {
            m = self
                .child(&m, seg)
                .unwrap_or_else(|| panic!("{krate}::{}: no module {seg}", m.path.join("::")));
        }
        m
    }

    /// The child module `name` of `m`, inline or in its own file.
    fn child(&self, m: &Module, name: &str) -> Option<Module> {
        let decl = m.items.iter().find_map(|item| match item {
            Item::Mod(md) if md.ident == name && !excluded(&md.attrs) => Some(md),
            _ => None,
        })?;
        let mut path = m.path.clone();
        path.push(name.to_owned());
        if let Some((_, items)) = &decl.content {
            return Some(Module {
                krate: m.krate.clone(),
                path,
                items: items.clone(),
                file_dir: m.file_dir.clone(),
                child_dir: m.child_dir.join(name),
            });
        }
        let file = path_attribute(&decl.attrs)
            .map(|p| m.file_dir.join(p))
            .unwrap_or_else(|| {
                let flat = m.child_dir.join(format!("{name}.rs"));
                if flat.exists() {
                    flat
                } else {
                    m.child_dir.join(name).join("mod.rs")
                }
            });
        let file_dir = file.parent().expect("a file's folder").to_path_buf();
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let child_dir = if stem == "mod" || stem == "lib" {
            file_dir.clone()
        } else {
            file_dir.join(stem)
        };
        Some(Module {
            krate: m.krate.clone(),
            path,
            items: Self::parse(&file),
            file_dir,
            child_dir,
        })
    }

    /// What the use path `path`, written in `m`, names.
    fn resolve(&self, m: &Module, path: &[String], depth: usize) -> Vec<Target> {
        assert!(depth < MAX_DEPTH, "a cycle resolving {}", path.join("::"));
        let (mut cur, rest): (Module, &[String]) = match path[0].as_str() {
            "crate" => (self.root(&m.krate), &path[1..]),
            "self" => (self.module(&m.krate, &m.path), &path[1..]),
            "super" => {
                let mut up = m.path.clone();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    up.pop();
                    rest = &rest[1..];
                }
                (self.module(&m.krate, &up), rest)
            }
            // A name declared here (a module) comes before a crate's name.
            first
                if m.items
                    .iter()
                    .any(|i| declared_name(i).as_deref() == Some(first)) =>
            {
                (self.module(&m.krate, &m.path), path)
            }
            first if self.crates.contains_key(first) => (self.root(first), &path[1..]),
            _ => return vec![Target::External(path.to_vec())],
        };
        let Some((last, walk)) = rest.split_last() else {
            return vec![Target::Module(cur.krate.clone(), cur.path.clone())];
        };
        for (i, seg) in walk.iter().enumerate() {
            let next = self
                .lookup(&cur, seg, false, depth + 1)
                .into_iter()
                .find(|t| matches!(t, Target::Module(..) | Target::External(_)));
            match next {
                Some(Target::Module(krate, p)) => cur = self.module(&krate, &p),
                Some(Target::External(mut ext)) => {
                    ext.extend(rest[i + 1..].iter().cloned());
                    return vec![Target::External(ext)];
                }
                _ => panic!(
                    "{}: no module {seg} in {}",
                    path.join("::"),
                    cur.path.join("::")
                ),
            }
        }
        self.lookup(&cur, last, true, depth + 1)
    }

    /// What `name` means in `m`; with `public`, only what `m` exports.
    fn lookup(&self, m: &Module, name: &str, public: bool, depth: usize) -> Vec<Target> {
        let mut found = Vec::new();
        let mut globs = Vec::new();
        for item in m.items.iter().filter(|i| !excluded(attrs(i))) {
            let visible = !public || is_pub(item);
            if let Item::Use(u) = item {
                for leaf in use_leaves(&u.tree) {
                    match leaf {
                        UseLeaf::Name { path, name: n } if n == name && visible => {
                            found.extend(self.resolve(m, &path, depth + 1));
                        }
                        UseLeaf::Glob { path } if visible => globs.push(path),
                        _ => {}
                    }
                }
            } else if declared_name(item).as_deref() == Some(name) && visible {
                found.push(self.target_of(m, item));
            }
        }
        if found.is_empty() {
            for path in globs {
                for target in self.resolve(m, &path, depth + 1) {
                    if let Target::Module(krate, p) = target {
                        let inner = self.module(&krate, &p);
                        found.extend(self.lookup(&inner, name, true, depth + 1));
                    }
                }
            }
        }
        found
    }

    fn target_of(&self, m: &Module, item: &Item) -> Target {
        if let Item::Mod(md) = item {
            let mut path = m.path.clone();
            path.push(md.ident.to_string());
            return Target::Module(m.krate.clone(), path);
        }
        Target::Item {
            kind: kind(item),
            notes: notes(attrs(item)),
        }
    }

    /// Every public name of module `m`, as `shown_as::name kind` lines,
    /// modules followed.
    fn list(&self, m: &Module, shown_as: &str, depth: usize, out: &mut BTreeSet<String>) {
        assert!(depth < MAX_DEPTH, "a cycle listing {shown_as}");
        for item in m.items.iter().filter(|i| is_pub(i) && !excluded(attrs(i))) {
            if let Item::Use(u) = item {
                for leaf in use_leaves(&u.tree) {
                    match leaf {
                        UseLeaf::Name { path, name } => {
                            let targets = self.resolve(m, &path, depth + 1);
                            assert!(
                                !targets.is_empty(),
                                "{shown_as}: `{}` names nothing",
                                path.join("::")
                            );
                            for target in targets {
                                self.entry(&target, &format!("{shown_as}::{name}"), depth, out);
                            }
                        }
                        UseLeaf::Glob { path } => {
                            for target in self.resolve(m, &path, depth + 1) {
                                match target {
                                    Target::Module(krate, p) => self.list(
                                        &self.module(&krate, &p),
                                        shown_as,
                                        depth + 1,
                                        out,
                                    ),
                                    _ => {
                                        out.insert(format!(
                                            "{shown_as}::* glob of {}",
                                            path.join("::")
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            } else if let Some(name) = declared_name(item) {
                let target = self.target_of(m, item);
                self.entry(&target, &format!("{shown_as}::{name}"), depth, out);
            }
        }
    }

    fn entry(&self, target: &Target, shown: &str, depth: usize, out: &mut BTreeSet<String>) {
        match target {
            Target::Item { kind, notes } => {
                out.insert(format!("{shown} {kind}{notes}"));
            }
            Target::Module(krate, path) => {
                let m = self.module(krate, path);
                let declared = if path.is_empty() { "crate" } else { "module" };
                out.insert(format!("{shown} {declared}"));
                self.list(&m, shown, depth + 1, out);
            }
            Target::External(path) => {
                let what = if path.len() == 1 {
                    "extern crate"
                } else {
                    "extern"
                };
                out.insert(format!("{shown} {what} {}", path.join("::")));
            }
        }
    }
}

fn use_leaves(tree: &UseTree) -> Vec<UseLeaf> {
    fn walk(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<UseLeaf>) {
        let named = |prefix: &Vec<String>, ident: String, name: String| {
            let mut path = prefix.clone();
            if ident != "self" {
                path.push(ident);
            }
            UseLeaf::Name { path, name }
        };
        match tree {
            UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                walk(&p.tree, prefix, out);
                prefix.pop();
            }
            UseTree::Name(n) => {
                let ident = n.ident.to_string();
                let name = if ident == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    ident.clone()
                };
                out.push(named(prefix, ident, name));
            }
            UseTree::Rename(r) => {
                out.push(named(prefix, r.ident.to_string(), r.rename.to_string()));
            }
            UseTree::Glob(_) => out.push(UseLeaf::Glob {
                path: prefix.clone(),
            }),
            UseTree::Group(g) => {
                for t in &g.items {
                    walk(t, prefix, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(tree, &mut Vec::new(), &mut out);
    out
}

fn attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

fn is_pub(item: &Item) -> bool {
    let vis = match item {
        Item::Const(i) => &i.vis,
        Item::Enum(i) => &i.vis,
        Item::ExternCrate(i) => &i.vis,
        Item::Fn(i) => &i.vis,
        Item::Mod(i) => &i.vis,
        Item::Static(i) => &i.vis,
        Item::Struct(i) => &i.vis,
        Item::Trait(i) => &i.vis,
        Item::TraitAlias(i) => &i.vis,
        Item::Type(i) => &i.vis,
        Item::Union(i) => &i.vis,
        Item::Use(i) => &i.vis,
        // An exported `macro_rules!` is public from the crate root.
        Item::Macro(i) => {
            return i.ident.is_some() && i.attrs.iter().any(|a| a.path().is_ident("macro_export"))
        }
        _ => return false,
    };
    matches!(vis, Visibility::Public(_))
}

fn declared_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::ExternCrate(i) => i.rename.as_ref().map_or(&i.ident, |(_, r)| r),
        Item::Fn(i) => &i.sig.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        Item::Mod(i) => &i.ident,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

fn kind(item: &Item) -> &'static str {
    match item {
        Item::Const(_) => "const",
        Item::Enum(_) => "enum",
        Item::ExternCrate(_) => "extern crate",
        Item::Fn(_) => "fn",
        Item::Macro(_) => "macro",
        Item::Mod(_) => "module",
        Item::Static(_) => "static",
        Item::Struct(_) => "struct",
        Item::Trait(_) => "trait",
        Item::TraitAlias(_) => "trait alias",
        Item::Type(_) => "type",
        Item::Union(_) => "union",
        _ => "other",
    }
}

/// The tokens inside `#[name(...)]`, for each such attribute.
fn attribute_args<'a>(attrs: &'a [Attribute], name: &'a str) -> impl Iterator<Item = String> + 'a {
    attrs.iter().filter_map(move |a| match &a.meta {
        syn::Meta::List(list) if list.path.is_ident(name) => Some(list.tokens.to_string()),
        _ => None,
    })
}

/// Items that are not part of the surface: test and doctest code.
fn excluded(attrs: &[Attribute]) -> bool {
    attribute_args(attrs, "cfg").any(|c| c == "test" || c == "doctest")
}

fn path_attribute(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// `#[non_exhaustive]`, `#[doc(hidden)]` and `cfg`s, as written after the kind.
fn notes(attrs: &[Attribute]) -> String {
    let mut notes = String::new();
    if attrs.iter().any(|a| a.path().is_ident("non_exhaustive")) {
        notes.push_str(" #[non_exhaustive]");
    }
    if attribute_args(attrs, "doc").any(|d| d == "hidden") {
        notes.push_str(" #[doc(hidden)]");
    }
    for cfg in attribute_args(attrs, "cfg") {
        notes.push_str(&format!(" #[cfg({cfg})]"));
    }
    notes
}

/// The public surface of crate `krate` of the workspace at `root`.
fn surface(root: &Path, krate: &str) -> Vec<String> {
    let ws = Workspace::of(root);
    let mut out = BTreeSet::new();
    ws.list(&ws.root(krate), krate, 0, &mut out);
    out.into_iter().collect()
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

#[test]
fn the_facade_surface_is_the_reviewed_one() {
    let names = surface(&workspace_root(), "parapet");
    insta::assert_snapshot!("facade", names.join("\n"));
}

#[test]
fn the_carla_compat_surface_is_the_reviewed_one() {
    let names = surface(&workspace_root(), "parapet_carla_compat");
    insta::assert_snapshot!("carla_compat", names.join("\n"));
}

#[test]
fn the_surface_names_what_the_public_api_promises() {
    // Guards the resolver on the real tree: names users write against, each
    // reached through a different construct (a named re-export of a type
    // alias, of an enum through a private module, an inline module of
    // named re-exports, a crate re-export under a new name, an external
    // crate).
    let names = surface(&workspace_root(), "parapet");
    for expected in [
        "parapet::prelude::Vec3 type",
        "parapet::prelude::PhysicsWorld struct",
        "parapet::ccd::CollisionDetection enum #[non_exhaustive]",
        "parapet::collide::contact module",
        "parapet::collide::contact::shapes fn",
        "parapet::collide::time_of_impact fn",
        "parapet::collide::inclusion crate",
        "parapet::math::nalgebra extern crate nalgebra",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "`{expected}` missing from the {} names",
            names.len()
        );
    }
}

/// Writes the files of a two-crate workspace under a fresh temporary folder.
fn fixture(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = std::env::temp_dir().join(format!("parapet-surface-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("temp folder");
        std::fs::write(path, text).expect("temp file");
    }
    root
}

#[test]
fn the_surface_follows_re_exports_and_changes_with_an_inner_item() {
    // A facade `a` re-exports by name through a private module of `b`, a
    // module, a glob, a renamed crate; private, crate-visible and test items
    // stay out. Adding a public function to a re-exported module of `b`
    // changes the list: that is the diff the snapshot shows.
    let inner = |extra: &str| format!("pub fn f() {{}}\npub(crate) fn g() {{}}\n{extra}");
    let files = |extra: &str| {
        vec![
            (
                "crates/a/Cargo.toml",
                "[package]\nname = \"a\"\n".to_owned(),
            ),
            (
                "crates/a/src/lib.rs",
                "pub mod m { pub use b::{Thing, inner, glob_src::*}; pub use b as bee; }\n\
                 pub struct Own;\nstruct Private;\npub(crate) fn hidden() {}\n\
                 #[cfg(test)] pub mod tests {}\npub use other::Alien;\n"
                    .to_owned(),
            ),
            (
                "crates/b/Cargo.toml",
                "[package]\nname = \"b\"\n".to_owned(),
            ),
            (
                "crates/b/src/lib.rs",
                "mod private;\npub use private::Thing;\npub mod inner;\n\
                 pub mod glob_src { pub const C: u8 = 1; #[non_exhaustive] pub enum E {} }\n"
                    .to_owned(),
            ),
            ("crates/b/src/private.rs", "pub struct Thing;\n".to_owned()),
            ("crates/b/src/inner.rs", inner(extra)),
        ]
    };
    let write = |name: &str, extra: &str| {
        let owned = files(extra);
        let borrowed: Vec<(&str, &str)> = owned.iter().map(|(p, t)| (*p, t.as_str())).collect();
        fixture(name, &borrowed)
    };
    let before_root = write("before", "");
    let before = surface(&before_root, "a");
    let expected_before = [
        "a::Alien extern other::Alien",
        "a::Own struct",
        "a::m module",
        "a::m::C const",
        "a::m::E enum #[non_exhaustive]",
        "a::m::Thing struct",
        "a::m::bee crate",
        "a::m::bee::Thing struct",
        "a::m::bee::glob_src module",
        "a::m::bee::glob_src::C const",
        "a::m::bee::glob_src::E enum #[non_exhaustive]",
        "a::m::bee::inner module",
        "a::m::bee::inner::f fn",
        "a::m::inner module",
        "a::m::inner::f fn",
    ];
    assert_eq!(before, expected_before);
    let after_root = write("after", "pub fn added() {}\n");
    let after = surface(&after_root, "a");
    let added: Vec<&String> = after.iter().filter(|n| !before.contains(n)).collect();
    assert_eq!(
        added,
        ["a::m::bee::inner::added fn", "a::m::inner::added fn"]
    );
    let _ = std::fs::remove_dir_all(before_root);
    let _ = std::fs::remove_dir_all(after_root);
}
