//! Build phase timings for profiling a large build: with `IL_TIMINGS` set in the
//! environment, each phase prints its wall time to stderr as it ends, with the
//! process's resident memory then and at its peak so far (Linux). Without it this
//! costs one environment lookup per phase.

use std::time::Instant;

/// Runs `f`, printing `name` and its wall time when `IL_TIMINGS` is set.
pub fn phase<T>(name: &str, f: impl FnOnce() -> T) -> T {
    if std::env::var_os("IL_TIMINGS").is_none() {
        return f();
    }
    let start = Instant::now();
    let out = f();
    eprintln!(
        "  {name:<24} {:>8.2} s {:>6} MiB now {:>6} MiB peak",
        start.elapsed().as_secs_f64(),
        memory("VmRSS:"),
        memory("VmHWM:")
    );
    out
}

/// A memory line of `/proc/self/status` in MiB, or "?" where there is none.
fn memory(field: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with(field))?;
            let kb: u64 = line[field.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
            Some((kb / 1024).to_string())
        })
        .unwrap_or_else(|| "?".into())
}
