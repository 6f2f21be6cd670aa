//! `--custom-evaluator NAME=FILE`: custom judged evaluators from prompt template files, each
//! checked (its name, its file, its definition) before anything is scored.

use std::sync::Arc;

use agenteval_core::custom::check_name;
use agenteval_core::engine::Customs;
use agenteval_core::evaluators::judged::template::JudgeTemplate;

use crate::UsageError;

/// The templates of every `NAME=FILE` argument.
///
/// # Errors
/// The first argument that is not `NAME=FILE`, names a built-in or a name given twice, or whose
/// file cannot be read or holds no valid definition; the message quotes the argument.
pub fn templates(arguments: &[String]) -> Result<Customs, UsageError> {
    let mut customs = Customs::default();
    for argument in arguments {
        let bad = |what: String| UsageError(format!("--custom-evaluator {argument}: {what}"));
        let Some((name, file)) = argument.split_once('=') else {
            return Err(bad("expected NAME=FILE".to_owned()));
        };
        check_name(name).map_err(|error| bad(error.message))?;
        if customs.templates.iter().any(|(known, _)| known == name) {
            return Err(bad(format!("the name {name} is given twice")));
        }
        let bytes = crate::input::read_side_file(std::path::Path::new(file), "template")
            .map_err(|error| bad(error.0))?;
        let text = String::from_utf8(bytes).map_err(|error| {
            bad(format!(
                "{file}: not UTF-8 text (byte {})",
                error.utf8_error().valid_up_to()
            ))
        })?;
        let template = JudgeTemplate::from_text(&text)
            .map_err(|error| bad(format!("{file}: {}", error.message)))?;
        customs
            .templates
            .push((name.to_owned(), Arc::new(template)));
    }
    Ok(customs)
}
