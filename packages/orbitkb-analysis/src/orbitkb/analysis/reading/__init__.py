"""Reading, stage 1 of the pipeline: walk the source tree, read and hash each file, parse it
through the cache, and collect its vocabulary."""
