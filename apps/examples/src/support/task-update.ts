// How the examples show a task update: its `message` when the service gives one, else its data as JSON.
export function describeTaskUpdate(data: { [key: string]: unknown }): string {
  return typeof data.message === 'string' ? data.message : JSON.stringify(data);
}
