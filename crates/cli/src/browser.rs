//! Finding a headless Chromium for the replay page ([`crate::view`]): the
//! browser that `cargo xtask test` hands to the replay page's test, and that
//! a user can point at a written page.
//!
//! Search order (the standard means, first found wins):
//! 1. the environment variable [`CHROME_ENV`] (`CHROME`), which must name an
//!    executable file (a set but wrong value is an error, never skipped over);
//! 2. each directory of `PATH`, for the names in [`EXECUTABLE_NAMES`];
//! 3. the usual install locations of [`INSTALL_LOCATIONS`].
//!
//! When none is found, [`BrowserMissing`] says where it looked and the exact
//! command that installs the system's package ([`install_command`]).

use std::path::{Path, PathBuf};

/// The environment variable that names the browser executable, checked first.
pub const CHROME_ENV: &str = "CHROME";

/// Executable names looked up in each `PATH` directory, in this order.
pub const EXECUTABLE_NAMES: [&str; 5] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
];

/// Install locations checked after `PATH` (Debian and Ubuntu packages, snap,
/// Google's packages, macOS applications).
pub const INSTALL_LOCATIONS: [&str; 6] = [
    "/usr/bin/chromium",
    "/usr/lib/chromium/chromium",
    "/snap/bin/chromium",
    "/opt/google/chrome/chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

/// No browser was found, or [`CHROME_ENV`] names no executable file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BrowserMissing {
    /// `CHROME` is set but names no executable file.
    #[error("{CHROME_ENV}={value} names no executable file")]
    BadVariable {
        /// The variable's value.
        value: String,
    },
    /// Nothing found by any of the standard means.
    #[error("no Chromium or Chrome found ({CHROME_ENV} unset; looked for {names} on PATH and at {locations}); install it with `{install}`, or set {CHROME_ENV} to the browser's executable")]
    NotFound {
        /// The executable names looked up on `PATH`, comma-separated.
        names: String,
        /// The install locations checked, comma-separated.
        locations: String,
        /// The command that installs the system's package.
        install: String,
    },
}

/// Whether `path` is a file the current user may execute.
fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The first executable of [`EXECUTABLE_NAMES`] in the directories of the
/// `PATH`-like list `path_var`.
fn on_path(path_var: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path_var).find_map(|dir| {
        EXECUTABLE_NAMES
            .iter()
            .map(|name| dir.join(name))
            .find(|candidate| is_executable(candidate))
    })
}

/// The browser executable by the search order of the module docs, from the
/// given values of `CHROME` and `PATH` (the environment's, in
/// [`find_chromium`]).
///
/// # Errors
/// [`BrowserMissing::BadVariable`] when `chrome` is set (non-empty) but
/// names no executable file; [`BrowserMissing::NotFound`] when nothing is
/// found.
pub fn find_chromium_in(
    chrome: Option<&std::ffi::OsStr>,
    path_var: Option<&std::ffi::OsStr>,
) -> Result<PathBuf, BrowserMissing> {
    if let Some(value) = chrome.filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        return if is_executable(&path) {
            Ok(path)
        } else {
            Err(BrowserMissing::BadVariable {
                value: path.display().to_string(),
            })
        };
    }
    if let Some(found) = path_var.and_then(on_path) {
        return Ok(found);
    }
    if let Some(found) = INSTALL_LOCATIONS
        .iter()
        .map(PathBuf::from)
        .find(|p| is_executable(p))
    {
        return Ok(found);
    }
    Err(BrowserMissing::NotFound {
        names: EXECUTABLE_NAMES.join(", "),
        locations: INSTALL_LOCATIONS.join(", "),
        install: install_command(path_var).join(" "),
    })
}

/// The browser executable by the search order of the module docs, from this
/// process's environment.
///
/// # Errors
/// As [`find_chromium_in`].
pub fn find_chromium() -> Result<PathBuf, BrowserMissing> {
    find_chromium_in(
        std::env::var_os(CHROME_ENV).as_deref(),
        std::env::var_os("PATH").as_deref(),
    )
}

/// The command that installs the system's Chromium package, for the first
/// package manager found on `path_var` (apt-get, dnf, pacman, zypper, brew;
/// apt-get's when none is found). Run it as root (or through `sudo`) except
/// for brew.
pub fn install_command(path_var: Option<&std::ffi::OsStr>) -> Vec<String> {
    let has = |tool: &str| {
        path_var.is_some_and(|p| std::env::split_paths(p).any(|d| is_executable(&d.join(tool))))
    };
    let words: &[&str] = if has("apt-get") {
        &["apt-get", "install", "-y", "chromium"]
    } else if has("dnf") {
        &["dnf", "install", "-y", "chromium"]
    } else if has("pacman") {
        &["pacman", "-S", "--noconfirm", "chromium"]
    } else if has("zypper") {
        &["zypper", "--non-interactive", "install", "chromium"]
    } else if has("brew") {
        &["brew", "install", "--cask", "chromium"]
    } else {
        &["apt-get", "install", "-y", "chromium"]
    };
    words.iter().map(|w| w.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    /// A fresh directory under the target dir for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("parapet-browser-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[cfg(unix)]
    fn make_executable(path: &Path) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(path, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_variable_wins_and_a_wrong_one_is_an_error() {
        let dir = scratch("var");
        let exe = dir.join("my-chrome");
        make_executable(&exe);
        assert_eq!(find_chromium_in(Some(exe.as_os_str()), None), Ok(exe));
        let missing = dir.join("nothing-here");
        assert!(matches!(
            find_chromium_in(Some(missing.as_os_str()), None),
            Err(BrowserMissing::BadVariable { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn path_is_searched_in_name_order() {
        let dir = scratch("path");
        make_executable(&dir.join("google-chrome"));
        make_executable(&dir.join("chromium-browser"));
        let found = find_chromium_in(None, Some(dir.as_os_str())).unwrap();
        assert_eq!(found, dir.join("chromium-browser"));
        // A file that is not executable is not a browser.
        let plain = scratch("plain");
        std::fs::write(plain.join("chromium"), "").unwrap();
        let found = find_chromium_in(Some(OsStr::new("")), Some(plain.as_os_str()));
        assert_ne!(found, Ok(plain.join("chromium")));
    }

    #[cfg(unix)]
    #[test]
    fn the_install_command_follows_the_package_manager_found() {
        let dir = scratch("pm");
        make_executable(&dir.join("dnf"));
        assert_eq!(
            install_command(Some(dir.as_os_str())),
            ["dnf", "install", "-y", "chromium"]
        );
        assert_eq!(install_command(None)[0], "apt-get");
    }
}
