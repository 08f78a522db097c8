//! An engine's process: spawned with piped standard input and output, read and written by
//! threads of their own so that nothing the engine does (or fails to do) can block fiveup.
//!
//! - The reader thread reads standard output in bounded lines ([`MAX_LINE`] bytes; a longer
//!   line is reported as [`Line::TooLong`] and skipped to its end) into a bounded channel of
//!   [`QUEUE`] lines. When the channel is full the reader waits, so an engine that floods its
//!   output is stopped by its own full pipe, and fiveup's memory stays bounded.
//! - The writer thread writes queued messages to standard input. The queue holds [`QUEUE`]
//!   messages; an engine that stops reading until the queue is full is reported as not
//!   reading, never waited for.
//! - The process runs in a process group of its own (on Unix), and dropping the handle kills
//!   the whole group, so a script's own children go with it. [`Child::quit`] first lets a
//!   healthy engine read its last messages and exit, for a bounded time.

use std::io::{BufRead as _, BufReader, Read, Write as _};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::time::{Duration, Instant};

use crate::messages::MAX_LINE;

/// Lines (either way) queued between fiveup and an engine before the engine counts as flooding
/// or as not reading.
pub const QUEUE: usize = 256;

/// What the reader thread saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its newline (lossily decoded as UTF-8).
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes: reported as soon as it is too long, then skipped
    /// to its end.
    TooLong,
    /// The engine closed its output or exited.
    Closed,
}

/// Why a message could not be queued for the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendError {
    /// The engine has not read its input while [`QUEUE`] messages piled up.
    NotReading,
    /// The engine's input is closed: it exited.
    Exited,
}

/// A running engine process.
#[derive(Debug)]
pub struct Child {
    child: std::process::Child,
    to_child: Option<SyncSender<String>>,
    from_child: Receiver<Line>,
    /// The engine's output has ended: every later read says so at once (the reader thread
    /// sends `Closed` before it ends, so the channel may not be disconnected yet).
    closed: bool,
}

impl Child {
    /// Start `argv` (program then arguments) with piped standard input and output; standard
    /// error goes to fiveup's when `stderr` is true, else nowhere.
    pub fn spawn(argv: &[String], stderr: bool) -> std::io::Result<Child> {
        let (program, args) = argv.split_first().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "an empty command")
        })?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt as _;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().expect("piped");
        let mut stdin = child.stdin.take().expect("piped");
        let (line_tx, from_child) = mpsc::sync_channel(QUEUE);
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || read_lines(stdout, &line_tx))?;
        let (to_child, msg_rx) = mpsc::sync_channel::<String>(QUEUE);
        std::thread::Builder::new()
            .name("engine-writer".into())
            .spawn(move || {
                for mut line in msg_rx {
                    line.push('\n');
                    if stdin.write_all(line.as_bytes()).is_err() || stdin.flush().is_err() {
                        break;
                    }
                }
            })?;
        Ok(Child {
            child,
            to_child: Some(to_child),
            from_child,
            closed: false,
        })
    }

    /// Queue one line for the engine's input, never waiting.
    pub fn send(&mut self, line: String) -> Result<(), SendError> {
        let tx = self.to_child.as_ref().ok_or(SendError::Exited)?;
        match tx.try_send(line) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(SendError::NotReading),
            Err(TrySendError::Disconnected(_)) => Err(SendError::Exited),
        }
    }

    /// The next line from the engine, waiting until `deadline` at most (`None`: the deadline
    /// passed first).
    pub fn recv(&mut self, deadline: Instant) -> Option<Line> {
        if self.closed {
            return Some(Line::Closed);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        let line = match self.from_child.recv_timeout(wait) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Line::Closed),
        };
        self.closed = line == Some(Line::Closed);
        line
    }

    /// A line already received, without waiting.
    pub fn try_recv(&mut self) -> Option<Line> {
        if self.closed {
            return Some(Line::Closed);
        }
        let line = match self.from_child.try_recv() {
            Ok(l) => Some(l),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Line::Closed),
        };
        self.closed = line == Some(Line::Closed);
        line
    }

    /// End the session politely: queue `last` (the quit message), close the engine's input,
    /// and give the engine up to `grace` to read what was queued and exit before it is killed.
    pub fn quit(mut self, last: String, grace: Duration) {
        let _ = self.send(last);
        self.to_child = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            }
        }
        // Dropped: killed if still running, with its process group.
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.to_child = None;
        #[cfg(unix)]
        {
            let pid = rustix::process::Pid::from_child(&self.child);
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        // Killed, the process ends at once; waiting reaps it.
        let _ = self.child.wait();
    }
}

/// The reader thread: bounded lines into the channel until the output closes or fiveup stops
/// listening.
fn read_lines(out: impl Read, tx: &SyncSender<Line>) {
    let mut r = BufReader::with_capacity(64 * 1024, out);
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match r.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(b) => b,
        };
        let (part, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if line.len() + part.len() > MAX_LINE {
                // Reported at once, so that an endless line is a fault now, not at its end.
                too_long = true;
                line = Vec::new();
                if tx.send(Line::TooLong).is_err() {
                    return;
                }
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = end.unwrap_or(part.len());
        r.consume(used);
        if end.is_some() {
            if !too_long {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                let item = Line::Text(String::from_utf8_lossy(&line).into_owned());
                if tx.send(item).is_err() {
                    return;
                }
            }
            line.clear();
            too_long = false;
        }
    }
    let _ = tx.send(Line::Closed);
}
