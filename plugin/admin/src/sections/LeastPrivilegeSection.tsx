import { Button, Notice } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';
import { runLeastPrivilegeCheck, type CheckReport } from '../api/service-account';
import { Code } from '../components/Code';
import { ErrorNotice } from '../components/ErrorNotice';
import { NONE, viewerLocale } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { ResponsiveTable } from '../components/ResponsiveTable';
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
			<ResponsiveTable
				caption={ __( 'Calls tried by the least-privilege check', 'service-integration' ) }
				className="si-check-results"
			>
				<thead>
					<tr>
						<th scope="col">{ __( 'Method', 'service-integration' ) }</th>
						<th scope="col">{ __( 'Route', 'service-integration' ) }</th>
						<th scope="col">{ __( 'Expected', 'service-integration' ) }</th>
						<th scope="col">{ __( 'HTTP status', 'service-integration' ) }</th>
						<th scope="col">{ __( 'Code', 'service-integration' ) }</th>
						<th scope="col">{ __( 'Result', 'service-integration' ) }</th>
					</tr>
				</thead>
				<tbody>
					{ report.results.map( ( result, index ) => (
						<tr
							key={ `${ result.method } ${ result.route } ${ index }` }
							className={ result.passed ? undefined : 'si-row--flagged' }
						>
							<td>
								<code>{ result.method }</code>
							</td>
							<td>
								<Code>{ result.route }</Code>
							</td>
							<td>
								{ result.expected === 'refused'
									? __( 'refused', 'service-integration' )
									: __( 'allowed', 'service-integration' ) }
							</td>
							<td>{ result.status }</td>
							<td>{ result.code ? <Code>{ result.code }</Code> : NONE }</td>
							<td>
								{ result.passed ? (
									<StatusBadge tone="success">{ __( 'Pass', 'service-integration' ) }</StatusBadge>
								) : (
									<StatusBadge tone="error">{ __( 'Fail', 'service-integration' ) }</StatusBadge>
								) }
							</td>
						</tr>
					) ) }
				</tbody>
			</ResponsiveTable>
		</div>
	);
}
