//! Dataset models and dialect readers (being written).
