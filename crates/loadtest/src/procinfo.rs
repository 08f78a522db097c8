//! Memory and CPU time of processes and threads, read from Linux's `/proc` (elsewhere the
//! figures are reported as unknown).

use std::collections::HashMap;

/// `/proc` reports CPU times in clock ticks of 1/100 s (`USER_HZ`, 100 on Linux).
const TICKS_PER_SEC: f64 = 100.0;

/// Resident memory of a process in KiB (`VmRSS`), `pid` `None` for this process.
#[must_use]
pub fn rss_kib(pid: Option<u32>) -> Option<u64> {
    let path = pid.map_or("/proc/self/status".to_string(), |p| {
        format!("/proc/{p}/status")
    });
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// User plus system CPU seconds in one `stat` file's text.
fn cpu_of_stat(stat: &str) -> Option<f64> {
    // The second field (the name) is in parentheses and may hold spaces: count from its end.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the name: state is field 3, utime field 14, stime field 15.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / TICKS_PER_SEC)
}

/// CPU seconds (user and system) a process used so far, `pid` `None` for this process.
#[must_use]
pub fn cpu_secs(pid: Option<u32>) -> Option<f64> {
    let path = pid.map_or("/proc/self/stat".to_string(), |p| format!("/proc/{p}/stat"));
    cpu_of_stat(&std::fs::read_to_string(path).ok()?)
}

/// CPU seconds used so far by this process's live threads, by thread name.
#[must_use]
pub fn thread_cpu_by_name() -> HashMap<String, f64> {
    let mut out = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for entry in dir.flatten() {
        let p = entry.path();
        let (Ok(name), Ok(stat)) = (
            std::fs::read_to_string(p.join("comm")),
            std::fs::read_to_string(p.join("stat")),
        ) else {
            continue;
        };
        if let Some(c) = cpu_of_stat(&stat) {
            *out.entry(name.trim().to_string()).or_insert(0.0) += c;
        }
    }
    out
}

/// The system's load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
#[must_use]
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(str::parse::<f64>);
    Some([it.next()?.ok()?, it.next()?.ok()?, it.next()?.ok()?])
}

/// Time `n` durable 4 KiB writes to a file in `dir`: each overwrites a block of a file sized
/// beforehand (as a database's reused write-ahead log is) and is followed by an fsync of its
/// data: an indication of how busy the disk is right now (other work on a shared disk slows
/// every durable commit). Returns the latencies in microseconds; the file is removed.
pub fn fsync_probe(dir: &std::path::Path, n: usize) -> std::io::Result<Vec<u32>> {
    use std::io::{Seek as _, SeekFrom, Write as _};
    const BLOCKS: u64 = 16;
    let path = dir.join(format!("fiveup-fsync-probe-{}", std::process::id()));
    let mut f = std::fs::File::create(&path)?;
    let block = [0x5au8; 4096];
    let mut out = Vec::with_capacity(n);
    let result = (|| {
        f.set_len(BLOCKS * 4096)?;
        f.sync_all()?;
        for i in 0..n as u64 {
            f.seek(SeekFrom::Start((i % BLOCKS) * 4096))?;
            f.write_all(&block)?;
            let t = std::time::Instant::now();
            f.sync_data()?;
            out.push(u32::try_from(t.elapsed().as_micros()).unwrap_or(u32::MAX));
        }
        Ok(())
    })();
    drop(f);
    let _ = std::fs::remove_file(&path);
    result.map(|()| out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_times_from_a_stat_line() {
        let line = "1234 (tokio (x) 1) S 1 1234 1234 0 -1 4194560 500 0 0 0 250 50 0 0 20 0 \
                    3 0 100 1000 100 18446744073709551615";
        assert_eq!(cpu_of_stat(line), Some(3.0));
        assert_eq!(cpu_of_stat("garbage"), None);
    }

    #[test]
    fn the_fsync_probe_times_each_sync_and_cleans_up() {
        let dir = tempfile::tempdir().unwrap();
        let t = fsync_probe(dir.path(), 3).unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn this_process_is_measured_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(rss_kib(None).unwrap() > 0);
            assert!(cpu_secs(None).is_some());
            assert!(!thread_cpu_by_name().is_empty());
            assert!(load_average().is_some());
        }
    }
}
