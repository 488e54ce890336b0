//! `cargo xtask test`: the README's test command. It does the set-up the
//! tests need outside Cargo on a fresh machine, then runs them; nothing is
//! skipped.
//!
//! 1. **The browser** of the replay page's test (`crates/cli/tests/cli_view.rs`):
//!    found by the standard means ([`parapet_cli::browser::find_chromium`]:
//!    `CHROME`, `PATH`, the usual install locations); when missing, the
//!    system's package is installed where the user may (as root, or through
//!    `sudo` without a password prompt), otherwise the task stops at once
//!    with the exact command to run. The path found is handed to the tests
//!    as `CHROME`.
//! 2. **`cargo test --workspace`**, with any arguments given after `--`.
//!
//! Every phase prints its wall time, so the README's figures can be checked.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Instant;

use parapet_cli::browser::{find_chromium, install_command, BrowserMissing, CHROME_ENV};

/// Whether this process runs as root (`id -u` prints 0).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Whether `sudo` runs without asking for a password.
fn passwordless_sudo() -> bool {
    Command::new("sudo")
        .args(["-n", "true"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Runs `words` (prefixed by `sudo` when `sudo` is set), printing it first;
/// whether it succeeded.
fn run_printed(words: &[String], sudo: bool) -> bool {
    let mut all: Vec<String> = Vec::new();
    if sudo {
        all.push("sudo".into());
    }
    all.extend(words.iter().cloned());
    println!("== {}", all.join(" "));
    let mut command = Command::new(&all[0]);
    command
        .args(&all[1..])
        .env("DEBIAN_FRONTEND", "noninteractive");
    command.status().map(|s| s.success()).unwrap_or(false)
}

/// Installs the system's Chromium package where the user may; `Err` with
/// the exact command to run otherwise.
fn install_browser() -> Result<(), String> {
    let path_var = std::env::var_os("PATH");
    let install = install_command(path_var.as_deref());
    let manager = install[0].clone();
    let root = is_root();
    let sudo = !root && manager != "brew" && passwordless_sudo();
    if !(root || sudo || manager == "brew") {
        return Err(format!(
            "Chromium is missing and this user may not install packages: run `sudo {}` (or set {CHROME_ENV} to a Chromium or Chrome executable), then `cargo xtask test` again",
            install.join(" ")
        ));
    }
    if manager == "apt-get" {
        let update: Vec<String> = ["apt-get", "update", "-qq"].map(String::from).to_vec();
        if !run_printed(&update, sudo) {
            return Err("`apt-get update` failed (see above)".into());
        }
    }
    if !run_printed(&install, sudo) {
        return Err(format!("`{}` failed (see above)", install.join(" ")));
    }
    Ok(())
}

/// The browser for the replay page's test, installed first if needed.
fn browser() -> Result<PathBuf, String> {
    match find_chromium() {
        Ok(path) => Ok(path),
        Err(e @ BrowserMissing::BadVariable { .. }) => Err(e.to_string()),
        Err(_) => {
            install_browser()?;
            find_chromium().map_err(|e| format!("installed, but still not found: {e}"))
        }
    }
}

/// Runs the task with the arguments after `test` (`--` passes the rest to
/// `cargo test`).
pub fn run(args: &[String]) -> ExitCode {
    let cargo_args: &[String] = match args.split_first() {
        None => &[],
        Some((first, rest)) if first == "--" => rest,
        Some((bad, _)) => {
            eprintln!(
                "xtask test: unknown argument `{bad}` (arguments for cargo test go after `--`)"
            );
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let browser = match browser() {
        Ok(path) => path,
        Err(message) => {
            eprintln!("xtask test: {message}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "== browser for the replay page's test: {}",
        browser.display()
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let tests = Instant::now();
    println!("== cargo test --workspace {}", cargo_args.join(" "));
    let status = Command::new(cargo)
        .args(["test", "--workspace"])
        .args(cargo_args)
        .env(CHROME_ENV, &browser)
        .status();
    let ok = matches!(status, Ok(s) if s.success());
    println!(
        "== cargo test --workspace: {} in {:.0} s (set-up {:.0} s)",
        if ok { "passed" } else { "FAILED" },
        tests.elapsed().as_secs_f64(),
        (tests - started).as_secs_f64()
    );
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
