// Runs zulip-js's callOnEachEvent (an endless loop by design) in its own process: prints the first event of
// one of the wanted types as JSON and exits.
const zulipInit = require('zulip-js');

const [realm, username, apiKey, ...types] = process.argv.slice(2);
(async () => {
  const client = await zulipInit({ realm, username, apiKey });
  console.log('registering');
  client.callOnEachEvent((event) => {
    if (types.includes(event.type)) {
      console.log(JSON.stringify(event));
      process.exit(0);
    }
  }, types);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
