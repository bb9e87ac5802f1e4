//! Widgets that follow messages ([`follow_loop`]): a front end's widget with a message input
//! (a GRC message edit box, a digital number control) reads the message taps on the outputs
//! connected to it; each new message is handed to the front end
//! ([`Variables::receive`](crate::Variables::receive)), which says what the widget shows and
//! what it sets and sends on, as QT's widget would. This runs on the control port's thread
//! whether or not a page is open (QT's widgets forward messages with no one looking).
//!
//! A tap keeps the latest message, read every [`FOLLOW_PERIOD`]: of several messages within
//! one period the widget takes the last (a display's value; GNU Radio would take each).

use crate::api::apply_change;
use crate::state::State;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

/// How often the taps a widget follows are read.
pub(crate) const FOLLOW_PERIOD: Duration = Duration::from_millis(20);

/// Hands each new message on the taps the front end's widgets follow to the widget, and
/// applies what it changes, until the port stops (the task is dropped with its runtime).
pub(crate) async fn follow_loop(state: Arc<State>) {
    let Some(shared) = state.variables.clone() else {
        return;
    };
    let follows = shared.0.lock().unwrap_or_else(|p| p.into_inner()).follows();
    // (widget, tap index in the state, count seen)
    let mut watched: Vec<(String, usize, u64)> = Vec::new();
    for (widget, taps) in follows {
        for id in taps {
            if let Some(i) = state.message_taps.iter().position(|t| t.id == id) {
                watched.push((widget.clone(), i, 0));
            }
        }
    }
    if watched.is_empty() {
        return;
    }
    let mut tick = tokio::time::interval(FOLLOW_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        if state.live().poster.is_none() {
            continue;
        }
        for (widget, tap, seen) in &mut watched {
            let tap = &state.message_taps[*tap];
            let count = tap.state.count.load(Relaxed);
            if count == *seen {
                continue;
            }
            *seen = count;
            let Some(msg) = tap
                .state
                .latest
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone()
            else {
                continue;
            };
            let taken = shared
                .0
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .receive(widget, &msg);
            let warning = match taken {
                Ok(None) => continue,
                Ok(Some(change)) => {
                    let (_, _, errors) = apply_change(&state, change.params, change.messages);
                    (!errors.is_empty()).then(|| errors.join("; "))
                }
                Err(e) => Some(e),
            };
            let mut followed = state.followed.lock().unwrap_or_else(|p| p.into_inner());
            followed.received += 1;
            match warning {
                Some(w) => followed.warnings.insert(widget.clone(), w),
                None => followed.warnings.remove(widget.as_str()),
            };
        }
    }
}
