//! The `parapet` command: `parapet run`, `parapet batch` and `parapet view`
//! (see `parapet --help`, the `parapet_cli` library and `docs/scenes.md`).

fn main() {
    std::process::exit(parapet_cli::cli::main_with(std::env::args_os()));
}
