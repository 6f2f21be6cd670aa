//! Driving a dataset's conversations through a target: at most `concurrency` conversations at
//! once (and the scheduler's limit on requests in flight), each conversation's turns in order,
//! each after the previous reply. One failing conversation never stops the others; a failed
//! turn ends its own conversation (later turns would lose their context), and those turns say
//! so. The latency of each turn is measured with the runtime's clock; the [`RunReport`] gathers
//! every turn's status, latency, tokens, error and notes.

use futures::StreamExt;
use serde_json::Value;

use super::wire::{Context, Secrets};
use super::{a2a, chat, directline, http_target, responses};
use super::{AgentError, Prompt, Reply, Target};
use crate::judge::{Clock, Scheduler, Usage};

/// One conversation to hold with the agent: an item, a Foundry row, a CSV row or a thread.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    /// Where it is in the dataset (`items[2]`, `line 4`, `row 3`).
    pub label: String,
    /// Its prompts, in order.
    pub turns: Vec<Prompt>,
}

/// How one turn went.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRecord {
    /// The reply, or why there is none.
    pub reply: Result<Reply, AgentError>,
    /// Milliseconds from sending the prompt to having the whole reply.
    pub latency_ms: u64,
}

/// How a run is driven.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// Most conversations held at once.
    pub concurrency: usize,
    /// Unique to this run (the host's clock, a random id): it starts every conversation and
    /// message id the run makes up (A2A `messageId`, the `http` target's `{{conversation_id}}`),
    /// so they never repeat across runs. The core has no source of its own.
    pub run_id: String,
}

/// The seams and settings a run uses.
pub struct Runner<'r> {
    /// The agent.
    pub target: &'r Target,
    /// The secrets its configuration names.
    pub secrets: &'r Secrets,
    /// The scheduler of its requests (see [`Scheduler::for_exchanges`]).
    pub scheduler: &'r Scheduler<'r>,
    /// The runtime's clock.
    pub clock: &'r dyn Clock,
    /// The options.
    pub options: RunOptions,
}

/// The conversation state each target keeps between turns.
enum Session {
    DirectLine(Option<directline::Conversation>),
    Responses(Option<String>),
    A2a(Option<String>),
    Chat(Vec<Value>),
    Http,
}

/// Holds every conversation and returns each one's turn records, in the conversations' order;
/// `on_done` is told each time a conversation ends (done, total).
pub async fn run(
    runner: &Runner<'_>,
    conversations: &[Conversation],
    on_done: &mut dyn FnMut(usize, usize),
) -> Vec<Vec<TurnRecord>> {
    let run_id = &runner.options.run_id;
    let total = conversations.len();
    let mut results: Vec<Option<Vec<TurnRecord>>> = vec![None; total];
    let mut done = 0;
    let mut held = futures::stream::iter(conversations.iter().enumerate())
        .map(|(index, conversation)| async move {
            let id = format!("agenteval-{run_id}-{index}");
            (index, converse(runner, &id, conversation).await)
        })
        .buffer_unordered(runner.options.concurrency.max(1));
    while let Some((index, records)) = held.next().await {
        if let Some(slot) = results.get_mut(index) {
            *slot = Some(records);
        }
        done += 1;
        on_done(done, total);
    }
    results.into_iter().map(Option::unwrap_or_default).collect()
}

async fn converse(runner: &Runner<'_>, id: &str, conversation: &Conversation) -> Vec<TurnRecord> {
    let mut context = Context {
        scheduler: runner.scheduler,
        clock: runner.clock,
        secrets: runner.secrets,
        redact: Vec::new(),
    };
    let mut session = match runner.target {
        Target::DirectLine(_) => Session::DirectLine(None),
        Target::Responses(_) => Session::Responses(None),
        Target::A2a(_) => Session::A2a(None),
        Target::Chat(_) => Session::Chat(Vec::new()),
        Target::Http(_) => Session::Http,
    };
    let mut records = Vec::with_capacity(conversation.turns.len());
    let mut failed_turn = None;
    for (number, prompt) in conversation.turns.iter().enumerate() {
        if let Some(failed) = failed_turn {
            records.push(TurnRecord {
                reply: Err(AgentError::new(
                    "notSent",
                    format!("not sent: turn {failed} of this conversation got no reply"),
                )),
                latency_ms: 0,
            });
            continue;
        }
        if runner.scheduler.cancel().is_cancelled() {
            records.push(TurnRecord {
                reply: Err(AgentError::new(
                    "cancelled",
                    "not sent: the run was stopped first",
                )),
                latency_ms: 0,
            });
            continue;
        }
        let started = runner.clock.now();
        let message_id = format!("{id}-{}", number + 1);
        let reply = match (runner.target, &mut session) {
            (Target::DirectLine(target), Session::DirectLine(state)) => {
                directline::turn(&mut context, target, state, prompt).await
            }
            (Target::Responses(target), Session::Responses(previous)) => {
                responses::turn(&context, target, previous, prompt).await
            }
            (Target::A2a(target), Session::A2a(context_id)) => {
                a2a::turn(&context, target, context_id, &message_id, prompt).await
            }
            (Target::Chat(target), Session::Chat(history)) => {
                chat::turn(&context, target, history, prompt).await
            }
            (Target::Http(target), Session::Http) => {
                http_target::turn(&context, target, id, prompt).await
            }
            _ => Err(AgentError::new(
                "agentError",
                "internal: the session does not match the target",
            )),
        };
        let reply = reply.map(|reply| redact_reply(reply, &context));
        let latency = match &reply {
            Ok(Reply {
                complete_after: Some(after),
                ..
            }) => *after,
            _ => runner.clock.now().saturating_sub(started),
        };
        if reply.is_err() {
            failed_turn = Some(number + 1);
        }
        records.push(TurnRecord {
            reply,
            latency_ms: u64::try_from(latency.as_millis()).unwrap_or(u64::MAX),
        });
    }
    records
}

/// `reply` with every secret of the run (and conversation tokens) redacted from its text.
fn redact_reply(mut reply: Reply, context: &Context<'_>) -> Reply {
    let mut secrets = context.secrets.values();
    secrets.extend(context.redact.iter().cloned());
    for secret in &secrets {
        if let std::borrow::Cow::Owned(clean) = crate::judge::http::redact(&reply.text, secret) {
            reply.text = clean;
        }
    }
    reply
}

/// What a run did, item by item: the record of a run beside the written dataset.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    /// The target's kind.
    pub target: &'static str,
    /// Turns sent and answered.
    pub answered: usize,
    /// Turns that got no reply.
    pub failed: usize,
    /// Items kept because they already had a response.
    pub kept: usize,
    /// Requests sent, retries and 429 answers.
    pub requests: u64,
    /// See `requests`.
    pub retries: u64,
    /// See `requests`.
    pub rate_limited: u64,
    /// Tokens over every turn that reported them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Usage>,
    /// Mean latency of the answered turns, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_latency_ms: Option<f64>,
    /// One entry per item kept (first), then per turn sent, in the dataset's order.
    pub entries: Vec<ReportEntry>,
}

/// One turn of the run report.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportEntry {
    /// The item (`items[2]`, `line 4`, `row 3`).
    pub item: String,
    /// The turn's number in a thread (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<usize>,
    /// `answered`, `error` or `kept`.
    pub status: &'static str,
    /// Milliseconds to the whole reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Tokens, when the target reports them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Usage>,
    /// Tool calls made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<usize>,
    /// Why there is no reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<AgentError>,
    /// Notes on how the reply was had.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl RunReport {
    /// The report of `records` (one list per conversation, as [`run`] returns them), with the
    /// labels of the items `kept`, and the scheduler's counts.
    pub fn new(
        runner: &Runner<'_>,
        conversations: &[Conversation],
        records: &[Vec<TurnRecord>],
        kept: &[String],
    ) -> Self {
        let stats = runner.scheduler.stats();
        let mut entries: Vec<ReportEntry> = kept
            .iter()
            .map(|label| ReportEntry {
                item: label.clone(),
                turn: None,
                status: "kept",
                latency_ms: None,
                tokens: None,
                tool_calls: None,
                error: None,
                notes: Vec::new(),
            })
            .collect();
        let mut tokens: Option<Usage> = None;
        let mut latencies = Vec::new();
        for (conversation, turns) in conversations.iter().zip(records) {
            let threaded = conversation.turns.len() > 1;
            for (number, record) in turns.iter().enumerate() {
                let turn = threaded.then_some(number + 1);
                let entry = match &record.reply {
                    Ok(reply) => {
                        latencies.push(record.latency_ms as f64);
                        if let Some(usage) = reply.usage {
                            tokens.get_or_insert_with(Usage::default).add(usage);
                        }
                        ReportEntry {
                            item: conversation.label.clone(),
                            turn,
                            status: "answered",
                            latency_ms: Some(record.latency_ms),
                            tokens: reply.usage,
                            tool_calls: (!reply.tool_calls.is_empty())
                                .then_some(reply.tool_calls.len()),
                            error: None,
                            notes: reply.notes.clone(),
                        }
                    }
                    Err(error) => ReportEntry {
                        item: conversation.label.clone(),
                        turn,
                        status: "error",
                        latency_ms: (record.latency_ms > 0).then_some(record.latency_ms),
                        tokens: None,
                        tool_calls: None,
                        error: Some(error.clone()),
                        notes: Vec::new(),
                    },
                };
                entries.push(entry);
            }
        }
        let answered = latencies.len();
        RunReport {
            target: runner.target.kind(),
            answered,
            failed: entries
                .iter()
                .filter(|entry| entry.status == "error")
                .count(),
            kept: kept.len(),
            requests: stats.requests,
            retries: stats.retries,
            rate_limited: stats.rate_limited,
            tokens,
            mean_latency_ms: (answered > 0)
                .then(|| latencies.iter().sum::<f64>() / answered as f64),
            entries,
        }
    }
}
