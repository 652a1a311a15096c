/** The package ships no types: the shape of what it returns (prom2json's). */
declare module 'parse-prometheus-text-format' {
	export interface ParsedSample {
		labels?: Record< string, string >;
		/** Counters, gauges, untyped. */
		value?: string;
		/** Histograms: upper bound ("0.5", "+Inf") to cumulative count. */
		buckets?: Record< string, string >;
		/** Summaries. */
		quantiles?: Record< string, string >;
		count?: string;
		sum?: string;
	}
	export interface ParsedFamily {
		name: string;
		help: string;
		type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
		metrics: ParsedSample[];
	}
	export default function parsePrometheusTextFormat( text: string ): ParsedFamily[];
}
