//! Shared text normalisation and tokenisation (being written).
