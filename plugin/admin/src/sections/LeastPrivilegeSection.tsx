import { Button, Notice } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';
import { runLeastPrivilegeCheck, type CheckReport, type CheckResult } from '../api/service-account';
import { Code } from '../components/Code';
import { DataTable, type Column } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { NONE, viewerLocale } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { Section } from '../components/Section';
import { StatusBadge } from '../components/StatusBadge';
import { useAction } from '../hooks/use-action';

/** Runs the least-privilege check on the live site and shows every call it tried. */
export function LeastPrivilegeSection() {
	const action = useAction();
	const [ report, setReport ] = useState< CheckReport | null >( null );
	const [ ranAt, setRanAt ] = useState< Date | null >( null );

	const run = async () => {
		const answer = await action.run( 'check', runLeastPrivilegeCheck );
		if ( answer ) {
			setReport( answer );
			setRanAt( new Date() );
		}
	};

	return (
		<Section
			title={ __( 'Least-privilege check', 'service-integration' ) }
			description={ __(
				'Creates a temporary account with the integration role and an application password, tries calls it must be refused (users, plugins, settings, posts, orders) and calls it must be allowed, reports each result, then deletes the account.',
				'service-integration'
			) }
		>
			<p>
				<Button
					variant="primary"
					onClick={ () => void run() }
					isBusy={ action.busy === 'check' }
					disabled={ action.busy !== null }
				>
					{ report
						? __( 'Run the check again', 'service-integration' )
						: __( 'Run the check', 'service-integration' ) }
				</Button>
			</p>
			{ action.busy === 'check' ? (
				<LoadingState label={ __( 'Running the check (a few seconds)…', 'service-integration' ) } />
			) : null }
			{ action.error ? (
				<ErrorNotice
					error={ action.error }
					context={ __( 'Running the check', 'service-integration' ) }
					onRetry={ () => void run() }
				/>
			) : null }
			{ report && action.busy !== 'check' ? <CheckReportView report={ report } ranAt={ ranAt } /> : null }
		</Section>
	);
}

function CheckReportView( { report, ranAt }: { report: CheckReport; ranAt: Date | null } ) {
	const failed = report.results.filter( ( result ) => ! result.passed ).length;
	return (
		<div className="si-check-report">
			<Notice
				status={ report.passed ? 'success' : 'error' }
				isDismissible={ false }
				className="si-notice si-check-verdict"
			>
				<p>
					<strong>
						{ report.passed
							? __(
									'Passed: the integration role is refused everything it must not do, and allowed what it needs.',
									'service-integration'
								)
							: __( 'Failed: see the rows marked "Fail" below.', 'service-integration' ) }
					</strong>
				</p>
				<p>
					{ sprintf(
						/* translators: 1: number of calls, 2: number of failed calls. */
						_n(
							'%1$d call tried, %2$d failed.',
							'%1$d calls tried, %2$d failed.',
							report.results.length,
							'service-integration'
						),
						report.results.length,
						failed
					) }{ ' ' }
					{ report.authenticated
						? __(
								'The temporary application password authenticated as the temporary account.',
								'service-integration'
							)
						: __( 'The temporary application password did NOT authenticate.', 'service-integration' ) }
					{ ranAt
						? ` ${ sprintf( /* translators: %s: time of day. */ __( 'Run at %s.', 'service-integration' ), ranAt.toLocaleTimeString( viewerLocale() ) ) }`
						: null }
				</p>
				{ report.error ? <p>{ report.error }</p> : null }
			</Notice>
			<DataTable
				caption={ __( 'Calls tried by the least-privilege check', 'service-integration' ) }
				className="si-check-results"
				columns={ checkColumns() }
				rows={ report.results }
				rowKey={ ( result, index ) => `${ result.method } ${ result.route } ${ index }` }
				rowAttributes={ ( result ) => ( { className: result.passed ? undefined : 'si-row--flagged' } ) }
			/>
		</div>
	);
}

function checkColumns(): Column< CheckResult >[] {
	return [
		{ label: __( 'Method', 'service-integration' ), render: ( result ) => <code>{ result.method }</code> },
		{ label: __( 'Route', 'service-integration' ), render: ( result ) => <Code>{ result.route }</Code> },
		{
			label: __( 'Expected', 'service-integration' ),
			render: ( result ) =>
				result.expected === 'refused'
					? __( 'refused', 'service-integration' )
					: __( 'allowed', 'service-integration' ),
		},
		{ label: __( 'HTTP status', 'service-integration' ), render: ( result ) => result.status },
		{
			label: __( 'Code', 'service-integration' ),
			render: ( result ) => ( result.code ? <Code>{ result.code }</Code> : NONE ),
		},
		{
			label: __( 'Result', 'service-integration' ),
			render: ( result ) =>
				result.passed ? (
					<StatusBadge tone="success">{ __( 'Pass', 'service-integration' ) }</StatusBadge>
				) : (
					<StatusBadge tone="error">{ __( 'Fail', 'service-integration' ) }</StatusBadge>
				),
		},
	];
}
