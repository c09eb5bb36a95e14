"""The learn app: rules pages and lessons."""
