//! The preparations of the judges of an answer, turn by turn: the quality judges (Relevance,
//! Coherence, Fluency, Similarity, Retrieval, ResponseCompleteness) and the agent judges that read
//! no tool calls of their own (IntentResolution, TaskAdherence, TaskCompletion). Each validates
//! the item as its reference evaluator does, converts it into evaluations and shows each one's
//! sections. Groundedness and the tool judges have modules of their own.

use super::convert::{
    arg, convert, ground_truth, turns, EvalInput, Hoist, AGENT, COMPLETENESS, QUERY_RESPONSE,
    RESPONSE_ONLY, RETRIEVAL, SIMILARITY,
};
use super::early::{not_intermediate, rejected, Early};
use super::prompt::Section;
use super::render;
use super::shown::{shown_context, shown_conversation, shown_response, shown_text};
use super::standard::{Judge, Turn};
use super::validate::{
    check_definitions, conversation_or_query_response, messages_or_conversation, Checks,
};
use crate::inputs::Inputs;

/// How much of an agent's messages a judge is shown: their text, or also the conversation's
/// system prompt and the response's tool calls.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    Text,
    SystemAndTools,
}

/// A turn shown as its conversation (under `heading`) and its response, or not applicable while
/// the agent has not answered.
fn conversation_and_response(input: &EvalInput, heading: &'static str, detail: Detail) -> Turn {
    let response = arg(input, "response");
    not_intermediate(response)?;
    let agent = detail == Detail::SystemAndTools;
    Ok(vec![
        Section::new(
            heading,
            shown_conversation(arg(input, "query"), agent, false),
        ),
        Section::new("RESPONSE", shown_response(response, agent)),
    ])
}

pub(super) fn relevance(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    messages_or_conversation(inputs, Checks::plain(true))?;
    let converted = convert(inputs, judge.class, &QUERY_RESPONSE, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        conversation_and_response(input, "QUERY", Detail::Text)
    }))
}

pub(super) fn coherence(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    let converted = convert(inputs, judge.class, &QUERY_RESPONSE, Hoist::No)?;
    Ok(turns(converted, |input| {
        conversation_and_response(input, "QUERY", Detail::Text)
    }))
}

pub(super) fn fluency(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    messages_or_conversation(inputs, Checks::plain(false))?;
    let converted = convert(inputs, judge.class, &RESPONSE_ONLY, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![Section::new(
            "RESPONSE",
            shown_response(response, false),
        )])
    }))
}

pub(super) fn similarity(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let truth = ground_truth(inputs);
    let converted = if inputs.get("conversation").is_some() || inputs.get("messages").is_some() {
        convert(inputs, judge.class, &SIMILARITY, Hoist::Messages)?
    } else {
        for (name, value) in [
            ("query", inputs.get("query")),
            ("response", inputs.get("response")),
            ("ground_truth", truth),
        ] {
            if value.is_none() {
                return Err(rejected(format!(
                    "Either 'conversation' or individual inputs must be provided. '{name}' is missing."
                )));
            }
        }
        convert(inputs, judge.class, &SIMILARITY, Hoist::No)?
    };
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new(
                "QUERY",
                shown_conversation(arg(input, "query"), false, false),
            ),
            Section::new("EXPECTED_RESPONSE", shown_text(arg(input, "ground_truth"))),
            Section::new("RESPONSE", shown_response(response, false)),
        ])
    }))
}

pub(super) fn retrieval(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let converted = convert(inputs, judge.class, &RETRIEVAL, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        Ok(vec![
            Section::new(
                "QUERY",
                shown_conversation(arg(input, "query"), false, false),
            ),
            Section::new(
                "CONTEXT",
                arg(input, "context").map(shown_context).unwrap_or_default(),
            ),
        ])
    }))
}

pub(super) fn response_completeness(
    inputs: &Inputs<'_>,
    judge: &Judge,
) -> Result<Vec<Turn>, Early> {
    let converted = convert(inputs, judge.class, &COMPLETENESS, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new("EXPECTED_RESPONSE", shown_text(arg(input, "ground_truth"))),
            Section::new("RESPONSE", shown_response(response, false)),
        ])
    }))
}

pub(super) fn intent_resolution(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    check_definitions(inputs, true)?;
    let converted = convert(inputs, judge.class, &AGENT, Hoist::No)?;
    Ok(turns(converted, |input| {
        conversation_and_response(input, "CONVERSATION", Detail::Text)
    }))
}

pub(super) fn task_adherence(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    check_definitions(inputs, true)?;
    let converted = convert(inputs, judge.class, &AGENT, Hoist::No)?;
    Ok(turns(converted, |input| {
        conversation_and_response(input, "CONVERSATION", Detail::SystemAndTools)
    }))
}

pub(super) fn task_completion(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    check_definitions(inputs, true)?;
    let converted = convert(inputs, judge.class, &AGENT, Hoist::No)?;
    Ok(turns(converted, |input| {
        let mut sections =
            conversation_and_response(input, "CONVERSATION", Detail::SystemAndTools)?;
        if let Some(definitions) =
            arg(input, "tool_definitions").filter(|d| render::truthy(Some(d)))
        {
            sections.push(Section::new(
                "TOOL_DEFINITIONS",
                render::definitions_summary(definitions),
            ));
        }
        Ok(sections)
    }))
}
