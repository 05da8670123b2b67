// The URL's host without the port. Not parsed with URL: a Host header such as lear.127.0.0.1 is not a valid URL
// host, yet names the organization.
export const hostOf = (url: string) => url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/s, '').replace(/:\d*$/, '');
