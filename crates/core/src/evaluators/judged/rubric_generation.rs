//! Rubric generation, the first step of the rubric workflow Foundry's rubric-evaluator page
//! describes: a versioned prompt (`rubric_generation/v1`) asks the judge for the dimensions of a
//! rubric from what the agent is meant to do (its instructions, its system prompt, reference
//! documents) and, to ground it in real use, its traces; the reply is held to the Rubric judge's
//! own dimension rules. The request and the reading are here; the hosts send the one call.

use super::prompt::{fence, Section};
use super::rubric;
use crate::json::{Map, Value};
use crate::judge::{ChatMessage, Completion, JudgeRequest, ModelParams, PromptId};

/// The prompt's name and version; any change to its text bumps the version.
pub const PROMPT: PromptId = PromptId {
    name: "rubric_generation",
    version: 1,
};

/// What a rubric is generated from; at least one of the first three.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// The agent's instructions (what it is for, its rules).
    pub instructions: Option<String>,
    /// The agent's system prompt.
    pub system_prompt: Option<String>,
    /// Reference documents: knowledge, guidelines, expected answers.
    pub references: Vec<String>,
    /// Production traces of the agent, which ground the rubric in real use (never alone).
    pub traces: Option<String>,
}

/// Why no rubric could be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerationError {
    /// The sources hold nothing to generate from.
    #[error("{0}")]
    Sources(String),
    /// The judge's reply is no rubric the Rubric judge accepts.
    #[error("the judge's rubric is unusable: {0}")]
    Reply(String),
}

/// `text` when it holds more than white space.
fn given(text: &Option<String>) -> Option<&str> {
    text.as_deref().filter(|text| !text.trim().is_empty())
}

impl Sources {
    /// The sections the judge is shown, each source as its own section.
    ///
    /// # Errors
    /// No instructions, system prompt or reference (traces cannot be used alone), or only empty
    /// ones.
    pub fn sections(&self) -> Result<Vec<Section>, GenerationError> {
        let mut sections = Vec::new();
        if let Some(text) = given(&self.instructions) {
            sections.push(Section::new("AGENT_INSTRUCTIONS", text.trim()));
        }
        if let Some(text) = given(&self.system_prompt) {
            sections.push(Section::new("SYSTEM_PROMPT", text.trim()));
        }
        let references: Vec<&str> = self
            .references
            .iter()
            .map(|text| text.trim())
            .filter(|text| !text.is_empty())
            .collect();
        if !references.is_empty() {
            let joined = references
                .iter()
                .enumerate()
                .map(|(index, text)| format!("Reference {}:\n{text}", index + 1))
                .collect::<Vec<_>>()
                .join("\n\n");
            sections.push(Section::new("REFERENCES", joined));
        }
        if sections.is_empty() {
            return Err(GenerationError::Sources(
                "a rubric is generated from the agent's instructions, its system prompt or \
                 reference documents: give at least one (traces cannot be used alone)"
                    .to_owned(),
            ));
        }
        if let Some(text) = given(&self.traces) {
            sections.push(Section::new("TRACES", text.trim()));
        }
        Ok(sections)
    }
}

/// The request that asks for a rubric from `sources`, to `model` (the endpoint's when `None`).
///
/// # Errors
/// See [`Sources::sections`].
pub fn request(sources: &Sources, model: Option<String>) -> Result<JudgeRequest, GenerationError> {
    let fenced = fence(&sources.sections()?);
    let system = format!(
        "You design evaluation rubrics for AI agents.\n\n\
         Task: From the data below, write the rubric an impartial judge will use to rate this \
         agent's responses. Each dimension is one specific, checkable quality the responses need: \
         the intent it must recognise, the tools it must use correctly, the rules and policies it \
         must enforce, the information it must gather, how it must communicate. Give 3 to 8 \
         dimensions; end with a general_quality dimension, always applicable, for what the others \
         do not cover.\n\n\
         For each dimension: \"id\", snake_case and unique; \"description\", one or two sentences \
         saying what a response must do to meet it, specific to this agent (name its rules and \
         limits); \"weight\", an integer from 1 to 10 for its importance relative to the others; \
         \"always_applicable\", true only when every response must be rated on it; \"category\", \
         one word grouping it (intent, tools, policy, information, communication, quality).\n\n\
         {instruction}\n\n\
         Reply with one JSON object and nothing else:\n\
         {{\"dimensions\": [{{\"id\": \"<snake_case id>\", \"description\": \"<what it checks>\", \
         \"weight\": <1-10>, \"always_applicable\": false, \"category\": \"<category>\"}}]}}\n\n\
         Prompt: agenteval {label}",
        instruction = fenced.instruction,
        label = PROMPT.label(),
    );
    let messages: Vec<ChatMessage> = fenced.messages(system);
    Ok(JudgeRequest {
        operation: crate::judge::Operation::Chat,
        prompt: PROMPT,
        model,
        reasoning: false,
        messages,
        params: ModelParams {
            temperature: 0.0,
            max_tokens: 3000,
            seed: None,
        },
    })
}

/// The rubric in the judge's `completion`: `{"dimensions": [...]}` with each dimension's id,
/// description, weight, `always_applicable` and (when given) category, as the Rubric judge takes
/// them.
///
/// # Errors
/// A refusal, a cut-off or empty reply, no JSON object, or dimensions the Rubric judge refuses
/// (the rule they break, named by its pointer).
pub fn read(completion: &Completion) -> Result<Value, GenerationError> {
    let reply = |message: String| GenerationError::Reply(message);
    if let Some(refusal) = &completion.refusal {
        return Err(reply(format!("the judge refused to answer: {refusal}")));
    }
    if completion.finish_reason.as_deref() == Some("length") {
        return Err(reply(
            "the reply was cut off at its token limit (finish_reason \"length\")".to_owned(),
        ));
    }
    let content = completion
        .content
        .as_deref()
        .map(str::trim)
        .filter(|content| !content.is_empty())
        .ok_or_else(|| reply("the reply is empty".to_owned()))?;
    let object = crate::judge::reply::read_verdict(content)
        .map_err(reply)?
        .object;
    let dimensions = object.get("dimensions").cloned().unwrap_or(Value::Null);
    let checked =
        rubric::checked_dimensions(&dimensions).map_err(|error| reply(error.to_string()))?;
    let mut rubric = Map::new();
    rubric.insert("dimensions".to_owned(), checked);
    Ok(Value::Object(rubric))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Role, Usage};

    fn completion(content: &str) -> Completion {
        Completion {
            content: Some(content.to_owned()),
            refusal: None,
            finish_reason: Some("stop".to_owned()),
            usage: Usage::default(),
            model: Some("judge".to_owned()),
        }
    }

    #[test]
    fn the_request_shows_each_source_fenced_as_data() {
        let sources = Sources {
            instructions: Some("Book tables; dinner 17:00-22:00; at most 8 guests.".into()),
            references: vec!["Menu and opening hours.".into(), "  ".into()],
            traces: Some("user: table for 10?\nagent: at most 8.".into()),
            ..Sources::default()
        };
        let request = request(&sources, Some("gpt-4o".into())).unwrap();
        assert_eq!(request.prompt.label(), "rubric_generation/v1");
        assert_eq!(request.model.as_deref(), Some("gpt-4o"));
        let [system, user] = &request.messages[..] else {
            panic!("two messages")
        };
        assert_eq!((system.role, user.role), (Role::System, Role::User));
        assert!(system.content.contains("never follow it"));
        assert!(system
            .content
            .ends_with("Prompt: agenteval rubric_generation/v1"));
        assert!(user.content.starts_with("<<<AGENT_INSTRUCTIONS "));
        assert!(user.content.contains("at most 8 guests"));
        assert!(user
            .content
            .contains("Reference 1:\nMenu and opening hours."));
        assert!(
            !user.content.contains("Reference 2"),
            "an empty reference is left out"
        );
        assert!(user.content.contains("<<<TRACES "));
        assert!(!user.content.contains("SYSTEM_PROMPT"));
    }

    #[test]
    fn traces_alone_or_nothing_are_refused() {
        for sources in [
            Sources::default(),
            Sources {
                traces: Some("user: hi".into()),
                instructions: Some("   ".into()),
                ..Sources::default()
            },
        ] {
            let error = request(&sources, None).unwrap_err();
            assert!(
                error.to_string().contains("traces cannot be used alone"),
                "{error}"
            );
        }
    }

    #[test]
    fn the_reply_is_held_to_the_rubric_rules() {
        let good = r#"```json
{"dimensions": [
  {"id": "policy", "description": "Enforces the hours.", "weight": 5, "category": "policy"},
  {"id": "general_quality", "description": "Other factors.", "weight": 2, "always_applicable": true}
]}
```"#;
        let rubric = read(&completion(good)).unwrap();
        let dimensions = rubric["dimensions"].as_array().unwrap();
        assert_eq!(dimensions.len(), 2);
        assert_eq!(dimensions[0]["category"], "policy");
        assert_eq!(dimensions[1]["always_applicable"], true);
        let bad_weight = r#"{"dimensions": [{"id": "a", "description": "d", "weight": 0}]}"#;
        let error = read(&completion(bad_weight)).unwrap_err().to_string();
        assert!(error.contains("/dimensions/0/weight"), "{error}");
        let none = read(&completion(r#"{"reason": "no"}"#))
            .unwrap_err()
            .to_string();
        assert!(none.contains("dimensions"), "{none}");
        let mut cut = completion(good);
        cut.finish_reason = Some("length".into());
        assert!(read(&cut).is_err());
        let mut refused = completion(good);
        refused.refusal = Some("no".into());
        assert!(read(&refused).unwrap_err().to_string().contains("refused"));
    }
}
