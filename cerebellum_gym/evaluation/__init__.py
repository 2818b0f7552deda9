"""The evaluation harness: suites, parallel rollouts, results and reports."""
