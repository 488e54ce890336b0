//! The `parapet` command-line front end: runs scene files (see the
//! `parapet_cli` library and `docs/scenes.md`).

fn main() {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        None | Some("--help") | Some("-h") => {
            println!("parapet {}", env!("CARGO_PKG_VERSION"));
            println!("usage: parapet --version");
        }
        Some("--version") | Some("-V") => println!("parapet {}", env!("CARGO_PKG_VERSION")),
        Some(other) => {
            eprintln!("parapet: unknown argument `{other}` (try --help)");
            std::process::exit(2);
        }
    }
}
