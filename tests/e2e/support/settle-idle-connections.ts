/**
 * Runs before each e2e file's own hooks (jest's setupFilesAfterEnv).
 *
 * The files of a run share one pool of keep-alive connections (Node's fetch, in jest's
 * process). Loading the next file (ts-jest compiles it synchronously) can block the event
 * loop for longer than the Playground server keeps an idle connection open (5 s): the
 * server closes it meanwhile, but fetch only learns so once the event loop turns, so the
 * file's first request went out on the closed connection and failed with "fetch failed:
 * other side closed". One turn of the event loop first lets fetch see the close and drop
 * that connection; the request then opens a new one.
 */
beforeAll( () => new Promise< void >( ( resolve ) => setTimeout( resolve, 0 ) ) );
