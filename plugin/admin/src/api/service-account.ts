/**
 * The service account routes (plugin/includes/Rest/class-service-account-controller.php); their
 * answers' types are generated from the routes' schemas (plugin/includes/Rest/Schemas/).
 */
import { request } from './client';
import type {
	CheckReport,
	CreatedAccount,
	CreatedPassword,
	RevokedPassword,
	ServiceAccountState,
	WideningState,
} from './generated/views';

export type { CheckReport, CreatedAccount, CreatedPassword, ServiceAccountState } from './generated/views';

export type ApplicationPassword = ServiceAccountState[ 'application_passwords' ][ number ];
export type CheckResult = CheckReport[ 'results' ][ number ];

export function getServiceAccount(): Promise< ServiceAccountState > {
	return request< ServiceAccountState >( 'GET', '/service-account' );
}

export function createServiceAccount(): Promise< CreatedAccount > {
	return request< CreatedAccount >( 'POST', '/service-account' );
}

export function createApplicationPassword( name: string ): Promise< CreatedPassword > {
	return request< CreatedPassword >( 'POST', '/service-account/application-passwords', { name } );
}

export function revokeApplicationPassword( uuid: string ): Promise< RevokedPassword > {
	return request( 'DELETE', `/service-account/application-passwords/${ encodeURIComponent( uuid ) }` );
}

export function resetWidening(): Promise< WideningState > {
	return request( 'DELETE', '/service-account/widening' );
}

export function runLeastPrivilegeCheck(): Promise< CheckReport > {
	return request< CheckReport >( 'POST', '/service-account/check' );
}
