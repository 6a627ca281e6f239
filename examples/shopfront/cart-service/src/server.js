/** Process entry point: starts the HTTP server. */
const app = require('./app');

const PORT = Number(process.env.PORT || 4000);

app.listen(PORT, () => {
  console.log(`cart listening on :${PORT}`);
});
