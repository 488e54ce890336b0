//! The `parapet` command-line front end.
//!
//! It will run scene files and write trajectories once an issue asks for it;
//! today it reports its version and the library it was built against.

fn main() {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        None | Some("--help") | Some("-h") => {
            println!("parapet {}", env!("CARGO_PKG_VERSION"));
            println!("usage: parapet --version");
            println!("The library's demo is `cargo xtask demo` in the parapet workspace.");
        }
        Some("--version") | Some("-V") => println!("parapet {}", env!("CARGO_PKG_VERSION")),
        Some(other) => {
            eprintln!("parapet: unknown argument `{other}` (try --help)");
            std::process::exit(2);
        }
    }
}
