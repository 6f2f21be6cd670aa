//! A scoring session driven through the judge: entries are stepped ahead of the ones waiting
//! for their judges (at most a window of them outstanding), judge calls of every outstanding
//! entry run at once under the [`Scheduler`]'s limits, and entries are recorded, and reported to
//! the caller, in dataset order. Cancellation makes every judge call not yet answered `skipped`
//! with [`CANCELLED_REASON`], so no entry is lost, and the run's figures name those entries.

use std::collections::BTreeMap;

use futures::future::join_all;
use futures::stream::{FuturesUnordered, StreamExt};

use super::{CustomCall, Next, PendingCase, Session};
use crate::custom::CustomReturn;
use crate::exchange::{Exchange, Exchanges};
use crate::judge::http::LocalFuture;
use crate::judge::request::JudgeRequest;
use crate::judge::schedule::{CallError, Scheduler};
use crate::judge::{JudgeCall, CANCELLED_REASON};
use crate::outcome::{EvalResult, Verdict};
use crate::report::{CaseOutcome, EntryRef, JudgeRun};

/// Entries done and entries in all, after each recorded entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Entries recorded.
    pub done: usize,
    /// Entries in all (see [`Session::total`]).
    pub total: usize,
}

/// Runs custom evaluators for the caller (JS functions in the package): the call, and the entry's
/// item index and turn.
pub type CustomHook<'h> =
    &'h dyn Fn(CustomCall, usize, Option<usize>) -> LocalFuture<'h, CustomReturn>;

/// Least number of entries kept outstanding, whatever the concurrency.
const MIN_WINDOW: usize = 16;

/// Runs `session` to its end through `scheduler`; `on_entry` sees each entry as it is recorded.
/// The session's report gets the run's judge figures ([`JudgeRun`]).
pub async fn run(
    session: &mut Session<'_>,
    scheduler: &Scheduler<'_>,
    custom: Option<CustomHook<'_>>,
    on_entry: &mut dyn FnMut(&CaseOutcome, Progress),
) {
    let window = (scheduler.policy().concurrency * 4).max(MIN_WINDOW);
    let mut in_flight = FuturesUnordered::new();
    let mut finished: BTreeMap<usize, CaseOutcome> = BTreeMap::new();
    let mut stepped = 0;
    let mut recorded = 0;
    let mut exhausted = false;
    let mut not_reached = Vec::new();
    loop {
        while !exhausted && stepped - recorded < window {
            match session.next_entry() {
                None => exhausted = true,
                Some(Next::Ready(outcome)) => {
                    finished.insert(stepped, outcome);
                    stepped += 1;
                }
                Some(Next::Pending(pending)) => {
                    let sequence = stepped;
                    in_flight
                        .push(async move { (sequence, resolve(pending, scheduler, custom).await) });
                    stepped += 1;
                }
            }
        }
        while let Some(outcome) = finished.remove(&recorded) {
            if was_cut_short(&outcome) {
                not_reached.push(EntryRef {
                    index: outcome.index,
                    turn: outcome.turn,
                });
            }
            recorded += 1;
            let total = session.total();
            let recorded_outcome = session.record(outcome);
            on_entry(
                recorded_outcome,
                Progress {
                    done: recorded,
                    total,
                },
            );
        }
        if exhausted && in_flight.is_empty() && finished.is_empty() {
            break;
        }
        if let Some((sequence, outcome)) = in_flight.next().await {
            finished.insert(sequence, outcome);
        }
    }
    session.report_mut().judge = Some(figures(scheduler, not_reached));
}

fn figures(scheduler: &Scheduler<'_>, not_reached: Vec<EntryRef>) -> JudgeRun {
    let stats = scheduler.stats();
    let model = &scheduler.endpoint().model;
    let elsewhere = stats.by_model.keys().any(|called| called != model);
    JudgeRun {
        endpoint: scheduler.endpoint().kind.as_str().to_owned(),
        model: scheduler.endpoint().model.clone(),
        calls: stats.cache_hits + stats.cache_misses,
        cache_hits: stats.cache_hits,
        cache_misses: stats.cache_misses,
        requests: stats.requests,
        retries: stats.retries,
        rate_limited: stats.rate_limited,
        failures: stats.failures,
        peak_in_flight: scheduler.peak_in_flight() as u64,
        usage: stats.usage,
        cancelled: scheduler.cancel().is_cancelled(),
        not_reached,
        deployments: if elsewhere {
            stats.by_model.clone()
        } else {
            std::collections::BTreeMap::new()
        },
    }
}

fn was_cut_short(outcome: &CaseOutcome) -> bool {
    outcome.results.iter().any(|result| {
        result.result == Verdict::Skipped && result.reason.as_deref() == Some(CANCELLED_REASON)
    })
}

/// Makes an entry's judge calls (all at once) and custom calls, and scores it.
async fn resolve(
    mut pending: PendingCase,
    scheduler: &Scheduler<'_>,
    custom: Option<CustomHook<'_>>,
) -> CaseOutcome {
    let judge_calls = std::mem::take(&mut pending.judge_calls);
    let judged = join_all(judge_calls.iter().map(|call| judge(call, scheduler))).await;
    pending.judge_calls = judge_calls;
    let returns = match custom {
        Some(hook) => {
            let (index, turn) = (pending.index(), pending.turn());
            join_all(
                pending
                    .calls
                    .iter()
                    .cloned()
                    .map(|call| hook(call, index, turn)),
            )
            .await
        }
        None => Vec::new(),
    };
    pending.resolve(returns, judged)
}

/// One judge call's result (of a conversation, its turns' calls made at once and combined);
/// answers that gave a verdict are kept in the cache.
pub async fn judge(call: &JudgeCall, scheduler: &Scheduler<'_>) -> EvalResult {
    let results = join_all(
        call.requests()
            .into_iter()
            .map(|request| judge_one(call, request, scheduler)),
    )
    .await;
    let exchanges: Vec<Exchange> = results
        .iter()
        .flat_map(|result| result.exchanges.0.iter().cloned())
        .collect();
    let mut combined = if results.iter().any(|result| {
        result.result == Verdict::Skipped && result.reason.as_deref() == Some(CANCELLED_REASON)
    }) {
        EvalResult::skipped(&call.label, CANCELLED_REASON)
    } else {
        let mut result = call.combine(results);
        if matches!(result.result, Verdict::Pass | Verdict::Fail) {
            for (key, value) in &call.notes {
                result.details.insert(*key, value.clone());
            }
        }
        result
    };
    combined.exchanges = Exchanges(exchanges);
    combined
}

async fn judge_one(
    call: &JudgeCall,
    request: &JudgeRequest,
    scheduler: &Scheduler<'_>,
) -> EvalResult {
    let prompt = request.prompt;
    let (mut result, answer) = match scheduler.call(request).await {
        Ok(answer) => {
            let result = call
                .reading
                .result(&call.label, prompt, Ok(&answer.completion));
            if result.result == Verdict::Error {
                scheduler.count_unusable_answer();
            } else {
                scheduler.remember(&answer).await;
            }
            (result, Some(answer))
        }
        Err(CallError::Failed(failure)) => (
            call.reading.result(&call.label, prompt, Err(&failure)),
            None,
        ),
        Err(CallError::Cancelled) => (EvalResult::skipped(&call.label, CANCELLED_REASON), None),
    };
    let sent = request.http(scheduler.endpoint());
    result.exchanges = Exchanges(vec![Exchange {
        url: sent.url,
        request: sent.body,
        cached: answer.as_ref().is_some_and(|answer| answer.cached),
        answer: answer.map(|answer| answer.body),
    }]);
    result
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures::executor::block_on;

    use super::*;
    use crate::dataset;
    use crate::judge::endpoint::{Endpoint, EndpointKind};
    use crate::judge::http::{FixedCredential, Transport};
    use crate::judge::schedule::Policy;
    use crate::judge::testing::{completion, request, ManualClock, ScriptedTransport};
    use crate::judge::Cancel;
    use crate::outcome::ErrorCode;

    fn session(responses: &[&str]) -> Session<'static> {
        let items: Vec<serde_json::Value> = responses
            .iter()
            .map(|response| serde_json::json!({"prompt": "Capital of France?", "response": response, "expected_response": "Paris"}))
            .collect();
        let document = serde_json::json!({
            "schemaVersion": "1.11.0",
            "default_evaluators": {"Relevance": {}, "PartialMatch": {}},
            "items": items
        });
        let loaded = dataset::load(document.to_string().as_bytes(), None).unwrap();
        Session::new(loaded.dataset, crate::engine::Customs::default()).with_judge()
    }

    static NO_CREDENTIAL: FixedCredential = FixedCredential(None);

    /// A scheduler of calls to a keyless OpenAI-compatible endpoint, with the default policy.
    fn scheduler<'a>(transport: &'a dyn Transport, clock: &'a ManualClock) -> Scheduler<'a> {
        let endpoint = Endpoint::new(EndpointKind::OpenAi, "http://judge.test/v1", "m").unwrap();
        Scheduler::new(
            endpoint,
            transport,
            clock,
            &NO_CREDENTIAL,
            Policy::default(),
        )
    }

    #[test]
    fn entries_are_recorded_in_order_whatever_order_the_judge_answers_in() {
        let transport = ScriptedTransport::new(|request, _| {
            let score = if request.body.contains("slow") { 2 } else { 5 };
            Some(Ok(completion(&format!(
                "{{\"score\": {score}, \"reason\": \"r\"}}"
            ))))
        });
        let clock = ManualClock::default();
        let scheduler = scheduler(&transport, &clock);
        let mut session = session(&["Paris.", "slow Paris", "Paris!", "  "]);
        let mut seen = Vec::new();
        block_on(run(
            &mut session,
            &scheduler,
            None,
            &mut |outcome, progress| {
                seen.push((outcome.index, progress.done, progress.total));
            },
        ));
        assert_eq!(seen, [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 4, 4)]);
        let report = session.finish();
        let relevance = |index: usize| &report.items[index].results[0];
        assert_eq!(relevance(0).score, Some(5.0));
        assert_eq!(relevance(1).score, Some(2.0));
        assert_eq!(relevance(1).result, Verdict::Fail);
        assert_eq!(
            relevance(3).error.as_ref().map(|error| error.code),
            Some(ErrorCode::EmptyAgentResponse)
        );
        assert_eq!(transport.sent.borrow().len(), 3);
        let figures = report.judge.unwrap();
        assert_eq!(
            (figures.calls, figures.requests, figures.cancelled),
            (3, 3, false)
        );
        assert_eq!(
            report.summary.per_evaluator()[0]
                .1
                .usage
                .unwrap()
                .total_tokens,
            45
        );
    }

    #[test]
    fn a_cancelled_run_ends_every_entry_and_names_those_not_judged() {
        let cancel = Cancel::new();
        let trigger = cancel.clone();
        let transport = ScriptedTransport::new(move |request, _| {
            if request.body.contains("zzhang") {
                return None;
            }
            if request.body.contains("zzstop") {
                trigger.cancel();
            }
            Some(Ok(completion("{\"score\": 4}")))
        });
        let clock = ManualClock::hanging_from(Duration::from_secs(1));
        let scheduler = scheduler(&transport, &clock).with_cancel(cancel.clone());
        let mut session = session(&["zzhang on", "Paris.", "zzstop Paris", "Paris?"]);
        block_on(run(&mut session, &scheduler, None, &mut |_, _| {}));
        let report = session.finish();
        assert_eq!(report.items.len(), 4);
        let first = &report.items[0];
        assert_eq!(
            first.results[0].result,
            Verdict::Skipped,
            "aborted in flight"
        );
        assert_eq!(first.results[0].reason.as_deref(), Some(CANCELLED_REASON));
        assert_eq!(
            first.results[1].result,
            Verdict::Fail,
            "local evaluators still run"
        );
        assert_eq!(report.items[1].results[0].result, Verdict::Pass);
        assert_eq!(report.items[2].results[0].result, Verdict::Pass);
        assert_eq!(
            report.items[3].results[0].result,
            Verdict::Skipped,
            "never sent"
        );
        let figures = report.judge.unwrap();
        assert!(figures.cancelled);
        assert_eq!(
            figures.not_reached,
            [
                EntryRef {
                    index: 0,
                    turn: None
                },
                EntryRef {
                    index: 3,
                    turn: None
                }
            ]
        );
        assert_eq!(
            transport.sent.borrow().len(),
            3,
            "no request after the cancel"
        );
    }

    #[test]
    fn a_conversation_makes_one_call_per_judged_turn_and_combines_them() {
        use crate::judge::verdict::{Extra, Reading, Scale};
        use crate::judge::TurnCall;
        let transport = ScriptedTransport::new(|request, _| {
            let score = if request.body.contains("turn one") {
                5
            } else {
                2
            };
            Some(Ok(completion(&format!(
                "{{\"score\": {score}, \"reason\": \"turn {score}\"}}"
            ))))
        });
        let clock = ManualClock::default();
        let scheduler = scheduler(&transport, &clock);
        let call = JudgeCall {
            label: "relevance".into(),
            request: request("turn one"),
            reading: Reading {
                scale: Scale::Likert,
                threshold: 3.0,
                extra: Extra::None,
                dimensions: None,
            },
            turns: vec![
                TurnCall::Judged(request("turn one")),
                TurnCall::Early(Box::new(EvalResult::skipped(
                    "relevance",
                    "Not applicable: Intermediate response.",
                ))),
                TurnCall::Judged(request("turn two")),
            ],
            notes: Vec::new(),
        };
        let result = block_on(judge(&call, &scheduler));
        assert_eq!(transport.sent.borrow().len(), 2);
        assert_eq!(
            result.score,
            Some(2.0),
            "a skipped turn: the last turn's result"
        );
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(
            result.details.get("score_per_turn"),
            Some(&crate::json!([5.0, null, 2.0]))
        );
        assert_eq!(result.usage.map(|usage| usage.total_tokens), Some(30));
        let mut both = call.clone();
        both.turns.remove(1);
        let result = block_on(judge(&both, &scheduler));
        assert_eq!(result.score, Some(3.5));
        assert_eq!(result.reason.as_deref(), Some("turn 2"));
    }

    #[test]
    fn judged_results_keep_the_exact_request_and_raw_answer_without_the_key_or_any_output() {
        let key = FixedCredential(Some(crate::judge::http::Credential::ApiKey(
            "sk-exchange-secret".into(),
        )));
        let transport = ScriptedTransport::new(|request, _| {
            let content = if request.body.contains("garbled") {
                "not a verdict"
            } else {
                "{\"score\": 4, \"reason\": \"on topic\"}"
            };
            Some(Ok(completion(content)))
        });
        let clock = ManualClock::default();
        let endpoint = Endpoint::new(EndpointKind::OpenAi, "http://judge.test/v1", "m").unwrap();
        let scheduler = Scheduler::new(endpoint, &transport, &clock, &key, Policy::default());
        let mut session = session(&["Paris.", "garbled Paris"]);
        block_on(run(&mut session, &scheduler, None, &mut |_, _| {}));
        let report = session.finish();
        let sent = transport.sent.borrow();
        let relevance = &report.items[0].results[0];
        let [exchange] = relevance.exchanges.0.as_slice() else {
            panic!("one exchange, got {:?}", relevance.exchanges);
        };
        assert_eq!(exchange.url, "http://judge.test/v1/chat/completions");
        assert!(sent.iter().any(|request| request.body == exchange.request));
        assert!(exchange.request.contains("Capital of France?"));
        let answer = exchange.answer.as_deref().unwrap();
        assert!(answer.contains("on topic") && answer.contains("choices"));
        assert!(!exchange.cached);
        let unreadable = &report.items[1].results[0];
        assert_eq!(unreadable.result, Verdict::Error);
        assert!(unreadable.exchanges.0[0]
            .answer
            .as_deref()
            .unwrap()
            .contains("not a verdict"));
        let deterministic = &report.items[0].results[1];
        assert!(
            deterministic.exchanges.is_empty(),
            "PartialMatch calls no judge"
        );
        let written = crate::report::to_json(&report);
        assert!(!written.contains("sk-exchange-secret"));
        assert!(
            !written.contains("chat/completions"),
            "no output carries the exchanges"
        );
        let kept = format!("{:?}", relevance.exchanges);
        assert!(!kept.contains("sk-exchange-secret"));
    }

    #[test]
    fn a_cancelled_call_keeps_the_request_it_would_have_sent_and_no_answer() {
        let transport = ScriptedTransport::new(|_, _| None);
        let clock = ManualClock::default();
        let cancel = Cancel::new();
        cancel.cancel();
        let scheduler = scheduler(&transport, &clock).with_cancel(cancel);
        let result = block_on(judge(
            &JudgeCall {
                label: "relevance".into(),
                request: request("never sent"),
                reading: crate::judge::verdict::Reading {
                    scale: crate::judge::verdict::Scale::Likert,
                    threshold: 3.0,
                    extra: crate::judge::verdict::Extra::None,
                    dimensions: None,
                },
                turns: Vec::new(),
                notes: Vec::new(),
            },
            &scheduler,
        ));
        assert_eq!(result.reason.as_deref(), Some(CANCELLED_REASON));
        assert_eq!(result.exchanges.0.len(), 1);
        assert!(result.exchanges.0[0].request.contains("never sent"));
        assert_eq!(result.exchanges.0[0].answer, None);
    }
}
