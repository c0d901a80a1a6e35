"""YAML loading shared by the replay engine (`judgebook.game`) and every scenario reader: bounded, with
line numbers, and the errors that name file, line and field."""
