/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", which CI
 * reads whatever the runner (jest's own summary has no "failed" count on success).
 * Written when the process exits, so it is the last line, after jest's summary.
 */
class SummaryReporter {
	onRunComplete( _contexts, results ) {
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const line = `Tests: ${ results.numPassedTests } passed, ${ failed } failed, ${ results.numPendingTests + results.numTodoTests } skipped\n`;
		process.once( 'exit', () => process.stderr.write( line ) );
	}
}

module.exports = SummaryReporter;
