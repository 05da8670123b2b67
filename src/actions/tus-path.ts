// Where resumable uploads are served: apart from src/actions/tus.ts, so that the routes name it without loading
// @tus/server, which comes with the first resumable upload rather than at start-up (B8: an idle server's memory).
export const TUS_PATH = '/api/v1/tus';
