//! Where validation is in the document: a linked list of JSON pointer tokens that lives on the
//! stack and becomes an RFC 6901 string only when a problem is reported.

use crate::diagnostic::push_pointer;

/// Where the walk is in the document: a linked list of reference tokens living on the stack.
#[derive(Clone, Copy)]
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    token: Token<'a>,
}

#[derive(Clone, Copy)]
enum Token<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    /// The document root.
    pub(crate) const ROOT: Path<'static> = Path {
        parent: None,
        token: Token::Root,
    };

    /// The child at object key `key`.
    pub(super) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            token: Token::Key(key),
        }
    }

    /// The child at array index `index`.
    pub(super) fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            token: Token::Index(index),
        }
    }

    /// The RFC 6901 pointer (empty for the root).
    pub(super) fn pointer(&self) -> String {
        let mut tokens = Vec::new();
        let mut current = Some(self);
        while let Some(path) = current {
            tokens.push(path.token);
            current = path.parent;
        }
        tokens
            .iter()
            .rev()
            .fold(String::new(), |pointer, token| match token {
                Token::Root => pointer,
                Token::Key(key) => push_pointer(&pointer, key),
                Token::Index(index) => push_pointer(&pointer, &index.to_string()),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_tokens() {
        let items = Path::ROOT.key("items");
        let first = items.index(0);
        let odd = first.key("a/b~c");
        assert_eq!(odd.pointer(), "/items/0/a~1b~0c");
        assert_eq!(Path::ROOT.pointer(), "");
    }
}
