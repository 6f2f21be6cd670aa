//! Putting replies into a dataset, in its own dialect. [`prepare`] reads the dataset (its dialect
//! sniffed from the content, as scoring does) into the conversations to hold and the items kept
//! because they already have a response (unless `rerun`); [`Prepared::write`] writes it back with
//! the replies filled in:
//!
//! - M365 documents: each item's `prompt` → `response` (and `citations`); a thread is one
//!   conversation, its turns in order, all sent again unless every turn has a response. Each
//!   item or turn sent records `extensions."agenteval.run"`: latency, tokens, tool calls, notes
//!   and, for a turn without a reply, its error.
//! - Foundry rows: `query` (text, or messages whose last user message is the prompt) →
//!   `response`: the text, or, when the agent called tools, the message list Foundry's
//!   evaluators read (assistant `tool_call`s, `tool` results, then the assistant's text); extra
//!   fields `agent_latency_ms`, `agent_usage`, `agent_notes` and `agent_error`.
//! - Copilot Studio CSV: `question` → `actualResponse` (a column added after `expectedResponse`
//!   when the set has none), the other columns as they were; the agent's text is written as an
//!   untrusted cell (formula triggers neutralised). The CSV has no place for latency: the run
//!   report has it.

use serde_json::{json, Map, Value};

use super::run::{Conversation, TurnRecord};
use super::{Prompt, Reply};
use crate::dataset::{self, Dataset};
use crate::diagnostic::{Diagnostic, InputError};
use crate::report::{csv, Dialect};

/// The extension key M365 items and turns record the run under.
pub const EXTENSION: &str = "agenteval.run";

/// A dataset read for a run.
#[derive(Debug, Clone)]
pub struct Prepared {
    work: Work,
    /// The conversations to hold, in the dataset's order.
    pub conversations: Vec<Conversation>,
    /// The items kept because they already have a response.
    pub kept: Vec<String>,
    /// The problems of items that cannot be run (no prompt, an unreadable row): they are
    /// written back as they were read.
    pub problems: Vec<Diagnostic>,
}

#[derive(Debug, Clone)]
enum Work {
    M365 {
        document: Value,
        /// The item index of each conversation.
        slots: Vec<usize>,
    },
    Foundry {
        lines: Vec<Line>,
        slots: Vec<usize>,
    },
    CopilotStudio {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
        actual: usize,
        slots: Vec<usize>,
    },
}

#[derive(Debug, Clone)]
enum Line {
    Verbatim(String),
    Row(Map<String, Value>),
}

impl Prepared {
    /// The dialect read.
    pub fn dialect(&self) -> Dialect {
        match self.work {
            Work::M365 { .. } => Dialect::M365,
            Work::Foundry { .. } => Dialect::Foundry,
            Work::CopilotStudio { .. } => Dialect::CopilotStudio,
        }
    }

    /// The dataset with the replies in `records` (one list per conversation, in order) filled
    /// in, as text in its own dialect.
    pub fn write(self, records: &[Vec<TurnRecord>]) -> String {
        match self.work {
            Work::M365 {
                mut document,
                slots,
            } => {
                if let Some(items) = document.get_mut("items").and_then(Value::as_array_mut) {
                    for (index, turns) in slots.iter().zip(records) {
                        if let Some(item) = items.get_mut(*index) {
                            fill_m365_item(item, turns);
                        }
                    }
                }
                let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
                text.push('\n');
                text
            }
            Work::Foundry { mut lines, slots } => {
                for (index, turns) in slots.iter().zip(records) {
                    if let (Some(Line::Row(row)), Some(record)) =
                        (lines.get_mut(*index), turns.first())
                    {
                        fill_foundry_row(row, record);
                    }
                }
                let mut text = String::new();
                for line in lines {
                    match line {
                        Line::Verbatim(original) => text.push_str(&original),
                        Line::Row(row) => text.push_str(&Value::Object(row).to_string()),
                    }
                    text.push('\n');
                }
                text
            }
            Work::CopilotStudio {
                header,
                mut rows,
                actual,
                slots,
            } => {
                for (index, turns) in slots.iter().zip(records) {
                    let reply = turns.first().and_then(|record| record.reply.as_ref().ok());
                    if let (Some(row), Some(reply)) = (rows.get_mut(*index), reply) {
                        if let Some(cell) = row.get_mut(actual) {
                            *cell = csv::text_cell(&reply.text);
                        }
                    }
                }
                let mut text = String::new();
                for cells in std::iter::once(&header).chain(&rows) {
                    text.push_str(&cells.join(","));
                    text.push_str("\r\n");
                }
                text
            }
        }
    }
}

/// Reads `bytes` for a run. `config` is a Foundry evaluation config, as for scoring.
///
/// # Errors
/// The dataset cannot be read (as for scoring), or an M365 document is in a legacy form.
pub fn prepare(
    bytes: &[u8],
    config: Option<&crate::json::Value>,
    rerun: bool,
) -> Result<Prepared, InputError> {
    let without_bom = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let loaded = match dataset::load(bytes, config) {
        Ok(loaded) => loaded,
        Err(error) if needs_config(&error) => return Ok(prepare_foundry(without_bom, rerun)),
        Err(error) => return Err(error),
    };
    let problems: Vec<Diagnostic> = loaded
        .diagnostics
        .into_iter()
        .filter(|diagnostic| diagnostic.severity == crate::diagnostic::Severity::Error)
        .collect();
    let prepared = match loaded.dataset {
        Dataset::M365(_) => prepare_m365(without_bom, rerun)?,
        Dataset::Foundry(_) => prepare_foundry(without_bom, rerun),
        Dataset::CopilotStudio(set) => prepare_copilot(&set, rerun),
    };
    Ok(Prepared {
        problems,
        ..prepared
    })
}

/// Whether reading stopped only because Foundry rows came without their evaluation config, which
/// a run does not need (scoring does).
fn needs_config(error: &InputError) -> bool {
    error
        .diagnostics
        .iter()
        .all(|diagnostic| diagnostic.code == Some("configMissing"))
        && !error.diagnostics.is_empty()
}

fn has_text(value: Option<&Value>) -> bool {
    match value {
        Some(Value::String(text)) => !text.trim().is_empty(),
        Some(Value::Array(items)) => !items.is_empty(),
        _ => false,
    }
}

fn prompt_of(item: &Map<String, Value>, text: &str) -> Prompt {
    Prompt {
        text: text.to_owned(),
        messages: None,
        item: item.clone(),
    }
}

fn prepare_m365(bytes: &[u8], rerun: bool) -> Result<Prepared, InputError> {
    let document: Value = serde_json::from_slice(bytes)
        .map_err(|error| InputError::one(Diagnostic::whole(format!("not JSON: {error}"))))?;
    let Some(items) = document.get("items").and_then(Value::as_array) else {
        return Err(InputError::one(Diagnostic::whole(
            "a run fills a current-form M365 document (an object with \"schemaVersion\" and \
             \"items\"); upgrade this legacy document first",
        )));
    };
    let mut conversations = Vec::new();
    let mut slots = Vec::new();
    let mut kept = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let Some(object) = item.as_object() else {
            continue;
        };
        let label = format!("items[{index}]");
        let turns: Vec<&Map<String, Value>> = match object.get("turns").and_then(Value::as_array) {
            Some(turns) => turns.iter().filter_map(Value::as_object).collect(),
            None => vec![object],
        };
        let prompts: Vec<Prompt> = turns
            .iter()
            .filter_map(|turn| {
                let text = turn.get("prompt").and_then(Value::as_str)?;
                Some(prompt_of(turn, text))
            })
            .collect();
        if prompts.is_empty() || prompts.len() != turns.len() {
            continue;
        }
        if !rerun && turns.iter().all(|turn| has_text(turn.get("response"))) {
            kept.push(label);
            continue;
        }
        slots.push(index);
        conversations.push(Conversation {
            label,
            turns: prompts,
        });
    }
    Ok(Prepared {
        work: Work::M365 { document, slots },
        conversations,
        kept,
        problems: Vec::new(),
    })
}

/// The extension an M365 item or turn records its run under.
fn run_extension(record: &TurnRecord) -> Value {
    let mut extension = Map::new();
    extension.insert("latencyMs".into(), json!(record.latency_ms));
    match &record.reply {
        Ok(reply) => {
            if let Some(usage) = reply.usage {
                extension.insert("tokens".into(), json!(usage));
            }
            if !reply.tool_calls.is_empty() {
                extension.insert("toolCalls".into(), json!(reply.tool_calls));
            }
            if !reply.notes.is_empty() {
                extension.insert("notes".into(), json!(reply.notes));
            }
        }
        Err(error) => {
            extension.insert("error".into(), json!(error));
        }
    }
    Value::Object(extension)
}

fn fill_m365_item(item: &mut Value, records: &[TurnRecord]) {
    let Some(object) = item.as_object_mut() else {
        return;
    };
    match object.get_mut("turns").and_then(Value::as_array_mut) {
        Some(turns) => {
            for (turn, record) in turns.iter_mut().zip(records) {
                if let Some(turn) = turn.as_object_mut() {
                    fill_m365_turn(turn, record);
                }
            }
        }
        None => {
            if let Some(record) = records.first() {
                fill_m365_turn(object, record);
            }
        }
    }
}

fn fill_m365_turn(turn: &mut Map<String, Value>, record: &TurnRecord) {
    match &record.reply {
        Ok(reply) => {
            turn.insert("response".into(), json!(reply.text));
            if reply.citations.is_empty() {
                turn.remove("citations");
            } else {
                let citations: Vec<Value> = reply
                    .citations
                    .iter()
                    .enumerate()
                    .map(|(position, citation)| {
                        let mut entry = Map::new();
                        entry.insert("index".into(), json!(position + 1));
                        if let Some(url) = &citation.url {
                            entry.insert("source".into(), json!(url));
                        }
                        if let Some(title) = &citation.title {
                            entry.insert("title".into(), json!(title));
                        }
                        if let Some(text) = &citation.text {
                            entry.insert("text".into(), json!(text));
                        }
                        Value::Object(entry)
                    })
                    .collect();
                turn.insert("citations".into(), Value::Array(citations));
            }
        }
        Err(_) => {
            turn.remove("response");
        }
    }
    let extensions = turn
        .entry("extensions")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(extensions) = extensions.as_object_mut() {
        extensions.insert(EXTENSION.into(), run_extension(record));
    }
}

fn prepare_foundry(bytes: &[u8], rerun: bool) -> Prepared {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = Vec::new();
    let mut conversations = Vec::new();
    let mut slots = Vec::new();
    let mut kept = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let label = format!("line {}", number + 1);
        let row = serde_json::from_str::<Value>(raw.trim())
            .ok()
            .and_then(|value| match value {
                Value::Object(row) if row.get("testing_criteria").is_none() => Some(row),
                _ => None,
            });
        let prompt = row.as_ref().and_then(foundry_prompt);
        match (row, prompt) {
            (Some(row), Some(prompt)) => {
                if !rerun && has_text(row.get("response")) {
                    kept.push(label);
                    lines.push(Line::Verbatim(raw.to_owned()));
                } else {
                    slots.push(lines.len());
                    conversations.push(Conversation {
                        label,
                        turns: vec![prompt],
                    });
                    lines.push(Line::Row(row));
                }
            }
            _ => lines.push(Line::Verbatim(raw.to_owned())),
        }
    }
    Prepared {
        work: Work::Foundry { lines, slots },
        conversations,
        kept,
        problems: Vec::new(),
    }
}

/// A Foundry row's prompt: `query` as text, or as messages whose last user message is the text.
fn foundry_prompt(row: &Map<String, Value>) -> Option<Prompt> {
    match row.get("query")? {
        Value::String(text) if !text.trim().is_empty() => Some(prompt_of(row, text)),
        Value::Array(messages) => {
            let last_user = messages
                .iter()
                .rev()
                .find(|message| message.get("role").and_then(Value::as_str) == Some("user"))?;
            let text = match last_user.get("content")? {
                Value::String(text) => text.clone(),
                Value::Array(parts) => parts
                    .iter()
                    .filter_map(|part| part.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n"),
                _ => return None,
            };
            Some(Prompt {
                text,
                messages: Some(messages.clone()),
                item: row.clone(),
            })
        }
        _ => None,
    }
}

/// The message list Foundry's evaluators read: each tool call, its result, then the text.
pub fn foundry_messages(reply: &Reply) -> Value {
    let mut messages = Vec::new();
    for call in &reply.tool_calls {
        messages.push(json!({
            "role": "assistant",
            "content": [{"type": "tool_call", "tool_call_id": call.id, "name": call.name, "arguments": call.arguments}],
        }));
        if let Some(output) = &call.output {
            messages.push(json!({
                "role": "tool",
                "tool_call_id": call.id,
                "content": [{"type": "tool_result", "tool_result": output}],
            }));
        }
    }
    messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": reply.text}]}));
    Value::Array(messages)
}

fn fill_foundry_row(row: &mut Map<String, Value>, record: &TurnRecord) {
    row.insert("agent_latency_ms".into(), json!(record.latency_ms));
    match &record.reply {
        Ok(reply) => {
            let response = if reply.tool_calls.is_empty() {
                json!(reply.text)
            } else {
                foundry_messages(reply)
            };
            row.insert("response".into(), response);
            row.remove("agent_error");
            if let Some(usage) = reply.usage {
                row.insert(
                    "agent_usage".into(),
                    json!({"input_tokens": usage.prompt_tokens, "output_tokens": usage.completion_tokens, "total_tokens": usage.total_tokens}),
                );
            }
            if !reply.notes.is_empty() {
                row.insert("agent_notes".into(), json!(reply.notes));
            }
        }
        Err(error) => {
            row.remove("response");
            row.insert("agent_error".into(), json!(error));
        }
    }
}

fn prepare_copilot(set: &dataset::CopilotStudioSet, rerun: bool) -> Prepared {
    let columns = &set.columns;
    let mut header: Vec<String> = columns.names.iter().map(|name| csv::quote(name)).collect();
    let mut rows: Vec<Vec<String>> = set
        .rows
        .iter()
        .map(|row| {
            let mut cells: Vec<String> = row.fields.iter().map(|field| csv::quote(field)).collect();
            cells.resize(columns.names.len(), String::new());
            cells
        })
        .collect();
    let actual = match columns.actual_response {
        Some(actual) => actual,
        None => {
            let at = columns.expected_response.unwrap_or(columns.question) + 1;
            header.insert(at, "actualResponse".to_owned());
            for cells in &mut rows {
                cells.insert(at, String::new());
            }
            at
        }
    };
    let mut conversations = Vec::new();
    let mut slots = Vec::new();
    let mut kept = Vec::new();
    for (index, row) in set.rows.iter().enumerate() {
        let label = format!("row {}", row.number);
        let question = row.field(columns.question);
        if row.problem.is_some() || question.trim().is_empty() {
            continue;
        }
        let answered = columns
            .actual_response
            .is_some_and(|column| !row.field(column).trim().is_empty());
        if answered && !rerun {
            kept.push(label);
            continue;
        }
        slots.push(index);
        conversations.push(Conversation {
            label,
            turns: vec![Prompt {
                text: question.to_owned(),
                messages: None,
                item: set.row_object(index).map(to_serde).unwrap_or_default(),
            }],
        });
    }
    Prepared {
        work: Work::CopilotStudio {
            header,
            rows,
            actual,
            slots,
        },
        conversations,
        kept,
        problems: Vec::new(),
    }
}

/// A row object of the core's JSON as serde_json's.
fn to_serde(object: crate::json::Map<String, crate::json::Value>) -> Map<String, Value> {
    object
        .into_iter()
        .map(|(key, value)| {
            let text = value.as_str().unwrap_or_default().to_owned();
            (key, Value::String(text))
        })
        .collect()
}
