import { Button, Notice } from '@wordpress/components';
import { createInterpolateElement } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import type { StoreErrorCode } from '../../../../sidecar/src/contracts/constants';
import { ApiError, isInvalidInput } from '../api/client';
import { Code, WithBreaks } from './Code';

interface Props {
	error: ApiError;
	/** What was being done, e.g. "Loading the endpoints". */
	context?: string;
	onRetry?: () => void;
	onDismiss?: () => void;
}

/** Guidance for the errors a site owner can do something about. */
function hint( error: ApiError ): React.ReactNode {
	switch ( error.code ) {
		case 'sidecar_unreachable':
			// WordPress says how to start the sidecar where this site runs (Sidecar_Messages).
			return typeof error.data.hint === 'string'
				? error.data.hint
				: __( 'The sidecar is not running or not reachable.', 'service-integration' );
		case 'sidecar_bad_signature':
			return createInterpolateElement(
				__(
					"WordPress and the sidecar do not share the same key: <constant/> in wp-config.php must match the sidecar's <env/> (or <file/>).",
					'service-integration'
				),
				{
					constant: <Code>SERVICE_INTEGRATION_SIDECAR_KEY</Code>,
					env: <Code>SIDECAR_SHARED_KEY</Code>,
					file: <Code>SIDECAR_SHARED_KEY_FILE</Code>,
				}
			);
		case 'sidecar_not_configured':
			return __(
				'Define SERVICE_INTEGRATION_SIDECAR_URL and SERVICE_INTEGRATION_SIDECAR_KEY in wp-config.php.',
				'service-integration'
			);
		case 'store_unavailable' satisfies StoreErrorCode:
			return __(
				"The sidecar cannot reach its database. Check that the database server is running and that the sidecar's SIDECAR_DATABASE_URL points at it; nothing was lost, WordPress hands the events over again later.",
				'service-integration'
			);
		case 'store_busy' satisfies StoreErrorCode:
			return __(
				"The sidecar's database is busy (a long queue or a concurrent change held this request back). Retry in a few seconds; nothing was lost.",
				'service-integration'
			);
		case 'rest_forbidden':
		case 'rest_cookie_invalid_nonce':
			return __(
				'Your session may have expired, or your account is not allowed to do this. Reload the page and log in again as an administrator.',
				'service-integration'
			);
		case 'fetch_error':
			return __( 'The site did not answer. Check your connection and try again.', 'service-integration' );
		default:
			return null;
	}
}

/** An API error as a Notice: a "not available yet" warning for missing routes, guidance otherwise. */
export function ErrorNotice( { error, context, onRetry, onDismiss }: Props ) {
	if ( error.code === 'rest_no_route' ) {
		return (
			<Notice status="warning" isDismissible={ false } className="si-notice si-not-available">
				<p>
					<strong>{ __( 'Not available yet.', 'service-integration' ) }</strong>{ ' ' }
					{ __(
						'This site does not have the REST route for this part of the page yet (it ships with a later version of the plugin). Everything else on the page works.',
						'service-integration'
					) }
				</p>
			</Notice>
		);
	}
	const guidance = hint( error );
	const actions = onRetry ? [ { label: __( 'Try again', 'service-integration' ), onClick: onRetry } ] : undefined;
	return (
		<Notice
			status="error"
			isDismissible={ Boolean( onDismiss ) }
			onRemove={ onDismiss }
			className="si-notice si-error"
			actions={ actions }
		>
			<p>
				{ context ? (
					<strong>
						{ sprintf(
							/* translators: %s: what failed, e.g. "Loading the endpoints". */ __(
								'%s failed:',
								'service-integration'
							),
							context
						) }{ ' ' }
					</strong>
				) : null }
				{ error.message }{ ' ' }
				{ isInvalidInput( error ) ? null : (
					<span className="si-error-code">
						<WithBreaks
							text={
								error.status
									? sprintf(
											/* translators: 1: error code, 2: HTTP status. */ __(
												'(%1$s, HTTP %2$d)',
												'service-integration'
											),
											error.code,
											error.status
										)
									: sprintf(
											/* translators: %s: error code. */ __( '(%s)', 'service-integration' ),
											error.code
										)
							}
						/>
					</span>
				) }
			</p>
			{ guidance ? <p className="si-error-hint">{ guidance }</p> : null }
		</Notice>
	);
}

/** For inline use next to a form: a retry button is rarely useful there. */
export function InlineRetry( { onRetry }: { onRetry: () => void } ) {
	return (
		<Button variant="secondary" onClick={ onRetry }>
			{ __( 'Try again', 'service-integration' ) }
		</Button>
	);
}
