//! m365_document output writer (being written).
