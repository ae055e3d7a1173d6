// Settings of the example, from the environment with demo defaults.

export const port = Number(process.env.PORT ?? 3000);
export const hashKey = process.env.HASH_KEY ?? 'hello-example-demo-hash-key-0123456789abcdef';
export const demoClient = { id: 'demo-client', secret: 'demo-secret', apiKey: 'demo-api-key' } as const;
export const tokenLifetimeSeconds = 3600;
