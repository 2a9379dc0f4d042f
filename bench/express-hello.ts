// The framework ceiling: a plain Express 5 hello-world, no middleware.
// `node dist/bench/express-hello.js PORT`. `/page25` answers a fixed page of
// 25 Simple-sized clients (about the bytes of our default page), the ceiling
// the varied benchmark compares with; every other GET answers a tiny JSON body.
import express from 'express';

const port = Number(process.argv[2] ?? 4010);
const app = express();
const page = {
  Page: 1,
  PageSize: 25,
  Results: Array.from({ length: 25 }, (_, i) => ({
    IdClient: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    FullName: `Client Number ${i}`,
    PersonalId: `19800101-${String(1000 + i)}`,
    Phone: `+46 70 123 45 ${String(i).padStart(2, '0')}`,
    Email: `client.number${i}@example.com`,
  })),
};
app.get('/page25', (_req, res) => {
  res.json(page);
});
app.get(/.*/, (_req, res) => {
  res.json('Hello World!');
});
app.listen(port, '127.0.0.1');
