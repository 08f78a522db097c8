//! The computer players' CPU, shared fairly between owners.
//!
//! A searching computer player (club and above think for milliseconds a move) runs on a thread
//! of the blocking pool. Left to itself, one account that opens hundreds of tables of strong
//! computer play (by tournaments of computer entrants, or tables) would have hundreds of
//! searches running at once, and every other table's computer would answer late. Here each
//! search is a job queued under its **owner** (the account that made the table, or the
//! tournament's creator for a tournament's tables); at most `slots` jobs run at once, and a
//! free slot goes to the owners in turn (round robin), so an owner with one table waits for at
//! most one job of each other owner, however many tables they have.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// Who a job is run for: an account, or the server itself (tables with no owner).
pub type Owner = i64;

/// The owner of tables nobody made (none today: every table has a creator or an event).
pub const SERVER: Owner = 0;

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Queues {
    running: usize,
    /// Each owner's waiting jobs, oldest first.
    waiting: HashMap<Owner, VecDeque<Job>>,
    /// The owners with waiting jobs, in the order they are served.
    turn: VecDeque<Owner>,
}

/// The pool: `slots` jobs at a time, owners served in turn.
pub struct FairPool {
    slots: usize,
    queues: Mutex<Queues>,
}

impl std::fmt::Debug for FairPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let q = self.queues.lock().expect("pool lock");
        f.debug_struct("FairPool")
            .field("slots", &self.slots)
            .field("running", &q.running)
            .field("owners_waiting", &q.turn.len())
            .finish()
    }
}

impl FairPool {
    /// A pool running at most `slots` jobs at once (at least one).
    #[must_use]
    pub fn new(slots: usize) -> Arc<FairPool> {
        Arc::new(FairPool {
            slots: slots.max(1),
            queues: Mutex::new(Queues::default()),
        })
    }

    /// Queue `job` for `owner`; it runs on the blocking pool when its turn comes. The answer
    /// comes back through the returned channel (closed if the job panicked).
    pub fn run<T: Send + 'static>(
        self: &Arc<Self>,
        owner: Owner,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> tokio::sync::oneshot::Receiver<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let boxed: Job = Box::new(move || {
            let _ = tx.send(job());
        });
        {
            let mut q = self.queues.lock().expect("pool lock");
            let list = q.waiting.entry(owner).or_default();
            list.push_back(boxed);
            if list.len() == 1 {
                q.turn.push_back(owner);
            }
        }
        self.dispatch();
        rx
    }

    /// Jobs waiting now, and jobs running.
    #[must_use]
    pub fn load(&self) -> (usize, usize) {
        let q = self.queues.lock().expect("pool lock");
        (q.waiting.values().map(VecDeque::len).sum(), q.running)
    }

    /// Start waiting jobs while slots are free, one owner after another.
    fn dispatch(self: &Arc<Self>) {
        loop {
            let job = {
                let mut q = self.queues.lock().expect("pool lock");
                if q.running >= self.slots {
                    return;
                }
                let Some(owner) = q.turn.pop_front() else {
                    return;
                };
                let list = q.waiting.get_mut(&owner).expect("a waiting owner");
                let job = list.pop_front().expect("an owner in turn has a job");
                if list.is_empty() {
                    q.waiting.remove(&owner);
                } else {
                    q.turn.push_back(owner);
                }
                q.running += 1;
                job
            };
            let me = self.clone();
            tokio::task::spawn_blocking(move || {
                // The slot is given back even if the job panics.
                struct Done(Arc<FairPool>);
                impl Drop for Done {
                    fn drop(&mut self) {
                        self.0.queues.lock().expect("pool lock").running -= 1;
                        self.0.dispatch();
                    }
                }
                let _done = Done(me);
                job();
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_owner_with_one_job_waits_for_at_most_one_job_of_each_other_owner() {
        let pool = FairPool::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let job = |name: &'static str, order: Arc<Mutex<Vec<&'static str>>>| {
            move || {
                std::thread::sleep(Duration::from_millis(5));
                order.lock().unwrap().push(name);
            }
        };
        // One owner queues twenty jobs, then another owner one.
        let mut waits = Vec::new();
        for _ in 0..20 {
            waits.push(pool.run(1, job("flood", order.clone())));
        }
        let start = Instant::now();
        let mine = pool.run(2, job("mine", order.clone()));
        mine.await.unwrap();
        let waited = start.elapsed();
        for w in waits {
            w.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        let at = order.iter().position(|n| *n == "mine").unwrap();
        // The flood's first job was running; the second owner's comes next.
        assert!(at <= 2, "{order:?}");
        assert!(waited < Duration::from_millis(500), "{waited:?}");
        // A job's answer is sent before its slot is given back (the slot goes when the job's
        // thread is done with it): the pool is idle a moment after the last answer.
        let idle_by = Instant::now() + Duration::from_secs(5);
        while pool.load() != (0, 0) && Instant::now() < idle_by {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(pool.load(), (0, 0));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panicking_job_gives_its_slot_back() {
        let pool = FairPool::new(1);
        let bad = pool.run(1, || -> u32 { panic!("a search that panics") });
        assert!(bad.await.is_err());
        assert_eq!(pool.run(1, || 7).await.unwrap(), 7);
    }
}
