"""Build-time glue between the Markdown sources, the calculators and MkDocs."""
