//! The engine process wrapper: an engine that never reads or never answers cannot make fiveup
//! wait past its own deadlines, and a dropped engine is gone.

use std::time::{Duration, Instant};

use fiveup_outside::child::{Child, Line, SendError, QUEUE};

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_string()).collect()
}

#[test]
fn an_engine_that_never_reads_is_reported_not_waited_for() {
    // `sleep` never reads its input: the pipe fills, then the queue, then sending fails at
    // once instead of blocking.
    let mut child = Child::spawn(&argv(&["sleep", "30"]), false).expect("sleep starts");
    let line = "x".repeat(4096);
    let start = Instant::now();
    let mut refused = None;
    for k in 0..(QUEUE + 4096) {
        match child.send(line.clone()) {
            Ok(()) => {}
            Err(e) => {
                refused = Some((k, e));
                break;
            }
        }
    }
    let (k, e) = refused.expect("the queue is bounded");
    assert_eq!(e, SendError::NotReading);
    assert!(k >= QUEUE, "{k} messages queued before the refusal");
    assert!(start.elapsed() < Duration::from_secs(20));
    // No answer: the wait ends at its deadline.
    let t = Instant::now();
    assert_eq!(child.recv(t + Duration::from_millis(50)), None);
    assert!(t.elapsed() < Duration::from_secs(10));
    // Dropped, it is killed at once (not after its 30 seconds).
    let t = Instant::now();
    drop(child);
    assert!(t.elapsed() < Duration::from_secs(10));
}

#[test]
fn lines_are_read_bounded_and_the_end_is_seen() {
    let script =
        "printf 'one\\r\\ntwo\\n'; head -c 300000 /dev/zero | tr '\\0' x; printf '\\nthree\\n'";
    let mut child = Child::spawn(&argv(&["sh", "-c", script]), false).expect("sh starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut got = Vec::new();
    loop {
        match child.recv(deadline) {
            Some(Line::Closed) | None => break,
            Some(l) => got.push(l),
        }
    }
    assert_eq!(
        got,
        vec![
            Line::Text("one".into()),
            Line::Text("two".into()),
            Line::TooLong,
            Line::Text("three".into()),
        ]
    );
    assert_eq!(child.try_recv(), Some(Line::Closed));
}

#[test]
fn a_missing_program_is_an_error() {
    assert!(Child::spawn(&argv(&["/nonexistent/engine"]), false).is_err());
    assert!(Child::spawn(&[], false).is_err());
}
