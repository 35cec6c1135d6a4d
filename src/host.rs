//! What the loop needs from the place it runs in: a clock, a timer, and (natively) a way to
//! drive a future to completion.
//!
//! The core must run unchanged in a browser tab and in `cargo test`. In wasm there is no
//! `std::time::Instant` (calling it panics) and no threads to sleep on; the bindings supply a
//! [`Host`] built on `performance.now()` and `setTimeout`. Natively, [`NativeHost`] uses the
//! standard library, and [`block_on`] polls a future on the current thread.

use crate::json::Value;
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;

/// A boxed future that need not be `Send`: in a browser everything runs on one thread, and JS
/// values (promises, callbacks) cannot cross threads anyway.
pub type LocalBoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// The clock and timer of the environment the agent runs in.
pub trait Host {
    /// Milliseconds since some fixed point (only differences are used).
    fn now_ms(&self) -> f64;
    /// A future that completes after `ms` milliseconds (used to pace streamed replies and to
    /// time tools out).
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
    /// Asks the user whether the tool `tool` may run on `input`. Where there is no one to ask,
    /// the answer is no: a tool marked as needing approval never runs unapproved.
    fn approve(&self, tool: &str, input: &Value) -> LocalBoxFuture<'static, bool> {
        let _ = (tool, input);
        Box::pin(std::future::ready(false))
    }
}

/// Runs `future` for at most `ms` milliseconds of the host's timer; `None` when time ran out.
/// The timer starts only if the future does not finish at once, so tools that answer
/// immediately (all of them, natively) never touch it.
pub async fn with_timeout<F: Future>(host: &dyn Host, ms: u32, future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut timer: Option<LocalBoxFuture<'static, ()>> = None;
    std::future::poll_fn(|context| {
        if let Poll::Ready(output) = future.as_mut().poll(context) {
            return Poll::Ready(Some(output));
        }
        let timer = timer.get_or_insert_with(|| host.sleep(ms));
        match timer.as_mut().poll(context) {
            Poll::Ready(()) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    })
    .await
}

/// Runs `future` until it ends or `abort` is asked to stop the run, whichever comes first;
/// `None` when the run was stopped first (the future is dropped: what it would have returned
/// comes too late to be recorded).
pub async fn unless_aborted<F: Future>(abort: &Abort, future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut stop = std::pin::pin!(abort.aborted());
    std::future::poll_fn(|context| {
        if let Poll::Ready(output) = future.as_mut().poll(context) {
            return Poll::Ready(Some(output));
        }
        match stop.as_mut().poll(context) {
            Poll::Ready(()) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    })
    .await
}

/// A flag that stops a run at the next delta or step, and wakes what waits on it (a tool
/// call in flight: see [`Abort::aborted`]); cheap to clone and share with a callback.
#[derive(Clone, Debug, Default)]
pub struct Abort(Rc<AbortState>);

#[derive(Debug, Default)]
struct AbortState {
    aborted: Cell<bool>,
    waiting: std::cell::RefCell<Vec<std::task::Waker>>,
}

impl Abort {
    /// Asks the run to stop.
    pub fn abort(&self) {
        self.0.aborted.set(true);
        for waker in self.0.waiting.take() {
            waker.wake();
        }
    }
    /// Whether the run was asked to stop.
    pub fn is_aborted(&self) -> bool {
        self.0.aborted.get()
    }
    /// Clears the flag, to reuse an agent after an aborted run.
    pub fn reset(&self) {
        self.0.aborted.set(false);
    }
    /// Completes once the run is asked to stop: raced against work that must not outlive Stop.
    pub fn aborted(&self) -> impl Future<Output = ()> + '_ {
        std::future::poll_fn(move |context| {
            if self.is_aborted() {
                return Poll::Ready(());
            }
            let mut waiting = self.0.waiting.borrow_mut();
            if !waiting.iter().any(|w| w.will_wake(context.waker())) {
                waiting.push(context.waker().clone());
            }
            Poll::Pending
        })
    }
}

/// The native host: `Instant` and a blocking sleep (fine for the CLI; tests use no delay).
#[cfg(not(target_arch = "wasm32"))]
pub struct NativeHost {
    start: std::time::Instant,
}

#[cfg(not(target_arch = "wasm32"))]
impl Default for NativeHost {
    fn default() -> Self {
        NativeHost {
            start: std::time::Instant::now(),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Host for NativeHost {
    fn now_ms(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1000.0
    }
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        // A deadline checked at each poll ([`block_on`] polls in a loop), napping at most a
        // millisecond at a time so that a timer raced against other work does not block it.
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(u64::from(ms));
        Box::pin(std::future::poll_fn(move |_| {
            let now = std::time::Instant::now();
            if now >= deadline {
                return Poll::Ready(());
            }
            std::thread::sleep((deadline - now).min(std::time::Duration::from_millis(1)));
            Poll::Pending
        }))
    }
}

/// Runs a future to completion on this thread. Natively every future in tao is ready as soon
/// as it is polled (tools and the scripted model do no I/O), so a no-op waker suffices; the
/// loop still yields correctly if one returns `Pending`, it just polls again.
#[cfg(not(target_arch = "wasm32"))]
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::yield_now();
    }
}

/// Runs `futures` together (on this thread, interleaved at their waits) and returns their
/// outputs in order: the tool calls of one reply, when their tools allow it.
pub async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|context| {
        let mut waiting = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(context) {
                    Poll::Ready(value) => *output = Some(value),
                    Poll::Pending => waiting = true,
                }
            }
        }
        if waiting {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}
