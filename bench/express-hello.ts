// The framework ceiling: a plain Express 5 hello-world, no middleware, answering
// every GET with a tiny JSON body. `node dist/bench/express-hello.js PORT`.
import express from 'express';

const port = Number(process.argv[2] ?? 4010);
const app = express();
app.get(/.*/, (_req, res) => {
  res.json('Hello World!');
});
app.listen(port, '127.0.0.1');
