/**
 * The sidecar's status as WordPress sees it through the signed channel
 * (plugin/includes/Rest/class-sidecar-status-controller.php, sidecar/src/http/routes/status.ts).
 */
import { request } from './client';

export interface SidecarStatus {
	reachable: boolean;
	url?: string;
	version?: string;
	uptime_s?: number;
	/** Deliveries by state (the outbound engine). */
	queue?: Partial< Record< 'pending' | 'in_flight' | 'failed' | 'cancelled', number > >;
	/** Endpoints by state (the outbound engine). */
	endpoints?: Partial< Record< 'active' | 'disabled', number > >;
	[ key: string ]: unknown;
}

export function getSidecarStatus(): Promise< SidecarStatus > {
	return request< SidecarStatus >( 'GET', '/sidecar/status' );
}
