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
//! 3. **The Python package's tests** (`crates/python/tests`, pytest): a
//!    virtual environment of its own under the target directory
//!    (`python-venv`, made once with the system's `python3`, or `$PYTHON`),
//!    the package built and installed into it by pip (maturin, from
//!    PyPI) with its test extras (pytest, mypy), then pytest. A missing
//!    Python stops the task with the exact command to run; nothing is
//!    skipped.
//!
//! Every phase prints its wall time, so the README's figures can be checked.

use std::path::{Path, PathBuf};
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

/// The interpreter that makes the virtual environment: `$PYTHON`, else
/// `python3`.
fn system_python() -> std::ffi::OsString {
    std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into())
}

/// The target directory: `$CARGO_TARGET_DIR`, else `target/` of the
/// workspace.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// The executable `name` of the virtual environment `venv`.
fn venv_tool(venv: &Path, name: &str) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join(format!("{name}.exe"))
    } else {
        venv.join("bin").join(name)
    }
}

/// Runs `command` (printed first with `label`); `Err` naming it when it
/// cannot start or fails.
fn run_step(label: &str, command: &mut Command) -> Result<(), String> {
    println!("== {label}");
    match command.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("`{label}` failed ({status})")),
        Err(e) => Err(format!("`{label}` could not start: {e}")),
    }
}

/// Phase 3: the virtual environment, the package and its tests.
fn python_tests(root: &Path) -> Result<(), String> {
    let venv = target_dir(root).join("python-venv");
    let python = venv_tool(&venv, "python");
    if !python.exists() {
        let system = system_python();
        let made = run_step(
            &format!("{} -m venv {}", system.to_string_lossy(), venv.display()),
            Command::new(&system).arg("-m").arg("venv").arg(&venv),
        );
        if let Err(e) = made {
            return Err(format!(
                "{e}: the Python tests need CPython 3.9 or later with venv and pip; install it (Debian: `sudo apt-get install python3 python3-venv python3-pip`) or set PYTHON to an interpreter, then `cargo xtask test` again"
            ));
        }
    }
    let package = root.join("crates").join("python");
    run_step(
        "pip install crates/python[test] (maturin builds the package)",
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(format!("{}[test]", package.display()))
            .current_dir(root),
    )?;
    run_step(
        "pytest crates/python/tests",
        Command::new(&python)
            .args(["-m", "pytest", "-q"])
            .arg(package.join("tests"))
            .current_dir(root),
    )
}

/// The workspace root (xtask's parent).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ has a parent")
        .to_path_buf()
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
    let python = Instant::now();
    let python_result = python_tests(&workspace_root());
    println!(
        "== the Python package's tests: {} in {:.0} s",
        match &python_result {
            Ok(()) => "passed".to_string(),
            Err(e) => format!("FAILED: {e}"),
        },
        python.elapsed().as_secs_f64()
    );
    if ok && python_result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
