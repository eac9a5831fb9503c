//! The target folder and its replacement: [`guard_target`] decides whether `dist/`
//! may be written, and [`Staging`] writes a bundle beside it and swaps it in whole,
//! after removing what killed builds left behind.

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// The file every bundle holds, which marks the folder as one this tool may replace.
pub const MARKER: &str = ".incident-library-bundle";

/// The one path a build writes `out` as: absolute, with `.`, `..` and links in the
/// folders above it resolved, so that the staging and old folders beside it are
/// real siblings of it (`dist/../dist` is not a folder inside `dist`). The last
/// name is kept as it is: a link there is refused by [`guard_target`], never
/// followed. The root, the folder the build runs in and any folder that holds it
/// are refused, since a build replaces its output whole.
pub fn resolve_target(out: &Path) -> Result<PathBuf> {
    let cwd = std::env::current_dir()
        .and_then(fs::canonicalize)
        .map_err(|e| Error::io(Path::new("."), e))?;
    let real = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut target = if out.is_absolute() { PathBuf::new() } else { cwd.clone() };
    for part in out.components() {
        match part {
            Component::Prefix(_) | Component::RootDir => target.push(part.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                target = real(&target);
                target.pop();
            }
            Component::Normal(name) => {
                target = real(&target);
                target.push(name);
            }
        }
    }
    if target.file_name().is_none() || cwd.starts_with(&target) {
        return Err(Error::msg(format!(
            "--out {}: is {}, and a build replaces its output whole\n  hint: choose a folder of its own, such as dist/",
            out.display(),
            if target == cwd {
                "the folder this build runs in".to_string()
            } else {
                format!("{}, which holds the folder this build runs in", target.display())
            }
        )));
    }
    Ok(target)
}

/// Checks that `out` may be written by a build of the corpus `data`: it must not
/// be, hold or lie inside `data`; it must be absent, an empty folder, or a bundle
/// this tool wrote (with [`MARKER`], or an `index/meta.bin` of ours from before the
/// marker); another folder only with `force`. Nothing is touched.
pub fn guard_target(data: &Path, out: &Path, force: bool) -> Result<()> {
    let resolve = |p: &Path| -> PathBuf {
        // The output may not exist yet: resolve its nearest existing ancestor.
        let mut missing = Vec::new();
        let mut at = p.to_path_buf();
        loop {
            if let Ok(real) = fs::canonicalize(&at) {
                return missing
                    .iter()
                    .rev()
                    .fold(real, |acc: PathBuf, part: &std::ffi::OsString| acc.join(part));
            }
            match (at.file_name().map(|n| n.to_os_string()), at.parent()) {
                (Some(name), Some(parent)) => {
                    missing.push(name);
                    at = if parent.as_os_str().is_empty() {
                        PathBuf::from(".")
                    } else {
                        parent.to_path_buf()
                    };
                }
                _ => return p.to_path_buf(),
            }
        }
    };
    let (corpus, target) = (resolve(data), resolve(out));
    let way_out = "choose another --out (the default is dist/)";
    if target == corpus || corpus.starts_with(&target) || target.starts_with(&corpus) {
        let how = if target == corpus {
            "is"
        } else if corpus.starts_with(&target) {
            "holds"
        } else {
            "lies inside"
        };
        return Err(Error::msg(format!(
            "--out {}: the output {how} the corpus {}; a build replaces its output whole, so it would delete the corpus\n  hint: {way_out}",
            out.display(),
            data.display()
        )));
    }
    let meta = match fs::symlink_metadata(out) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(out, e)),
    };
    if !meta.is_dir() {
        return Err(Error::msg(format!(
            "--out {}: is not a folder (a file or a link is never replaced)\n  hint: {way_out}, or remove it yourself",
            out.display()
        )));
    }
    let ours = out.join(MARKER).is_file()
        || fs::read(out.join("index").join("meta.bin")).is_ok_and(|b| b.starts_with(&incident_core::format::MAGIC));
    let empty = fs::read_dir(out).map_err(|e| Error::io(out, e))?.next().is_none();
    if ours || empty || force {
        return Ok(());
    }
    Err(Error::msg(format!(
        "--out {}: the folder holds files this tool did not write, and a build replaces its output whole\n  hint: {way_out}, or pass --force to replace the folder and everything in it",
        out.display()
    )))
}

/// True when process `pid` is running (on unix; elsewhere always true, so nothing
/// of another build is touched).
fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let r = unsafe { libc::kill(pid as libc::pid_t, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes the staging folders that builds of `target` which are no longer running
/// left beside it, and puts back a previous bundle that such a build had moved
/// aside and not replaced.
fn clean_stale(parent: &Path, name: &str, target: &Path) {
    let Ok(entries) = fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        let (kind, pid) = if let Some(pid) = file.strip_prefix(&format!(".{name}.tmp-")) {
            ("tmp", pid)
        } else if let Some(pid) = file.strip_prefix(&format!(".{name}.old-")) {
            ("old", pid)
        } else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else { continue };
        if pid == std::process::id() || alive(pid) {
            continue;
        }
        let path = entry.path();
        if kind == "old" && !target.exists() {
            let _ = fs::rename(&path, target);
        } else {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

/// A bundle being written: files are added under a temporary folder and published
/// by [`Staging::commit`]. Dropping it without committing removes the folder.
pub struct Staging {
    tmp: PathBuf,
    target: PathBuf,
    lock: PathBuf,
    committed: bool,
}

/// Takes the lock file `lock` for this process: one build at a time writes a
/// target. A lock left by a process that is no longer running is taken over.
fn take_lock(lock: &Path, target: &Path) -> Result<()> {
    for _ in 0..2 {
        match fs::OpenOptions::new().write(true).create_new(true).open(lock) {
            Ok(mut f) => {
                use std::io::Write;
                return write!(f, "{}", std::process::id()).map_err(|e| Error::io(lock, e));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let holder = fs::read_to_string(lock).ok().and_then(|s| s.trim().parse::<u32>().ok());
                match holder {
                    Some(pid) if pid != std::process::id() && alive(pid) => {
                        return Err(Error::msg(format!(
                            "--out {}: another build (process {pid}) is writing it now\n  hint: wait for that build to finish, or stop it, then build again",
                            target.display()
                        )));
                    }
                    _ => {
                        let _ = fs::remove_file(lock);
                    }
                }
            }
            Err(e) => return Err(Error::io(lock, e)),
        }
    }
    Err(Error::msg(format!(
        "--out {}: the lock {} could not be taken\n  hint: remove it if no build is running",
        target.display(),
        lock.display()
    )))
}

impl Staging {
    /// Starts a bundle that will replace `target`.
    pub fn new(target: &Path) -> Result<Staging> {
        let parent = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("dist");
        let lock = parent.join(format!(".{name}.lock"));
        take_lock(&lock, target)?;
        clean_stale(parent, name, target);
        let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        let staging = Staging {
            tmp,
            target: target.to_path_buf(),
            lock,
            committed: false,
        };
        if staging.tmp.exists() {
            fs::remove_dir_all(&staging.tmp).map_err(|e| Error::io(&staging.tmp, e))?;
        }
        fs::create_dir_all(&staging.tmp).map_err(|e| Error::io(&staging.tmp, e))?;
        fs::write(
            staging.tmp.join(MARKER),
            "A bundle written by incident-library build; the next build replaces this folder whole.\n",
        )
        .map_err(|e| Error::io(&staging.tmp, e))?;
        Ok(staging)
    }

    /// Writes `bytes` at `relative` inside the bundle, creating folders.
    pub fn write(&self, relative: &str, bytes: &[u8]) -> Result<()> {
        let path = self.tmp.join(relative);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        fs::write(&path, bytes).map_err(|e| Error::io(&path, e))
    }

    /// Replaces the target with the finished bundle.
    pub fn commit(mut self) -> Result<()> {
        let old = self.tmp.with_file_name(format!(
            ".{}.old-{}",
            self.target.file_name().and_then(|n| n.to_str()).unwrap_or("dist"),
            std::process::id()
        ));
        let had_old = self.target.exists();
        if had_old {
            fs::rename(&self.target, &old).map_err(|e| Error::io(&self.target, e))?;
        }
        if let Err(e) = fs::rename(&self.tmp, &self.target) {
            if had_old {
                let _ = fs::rename(&old, &self.target);
            }
            return Err(Error::io(&self.target, e));
        }
        self.committed = true;
        if had_old {
            fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.tmp);
        }
        let _ = fs::remove_file(&self.lock);
    }
}
