/** An OSC half that cannot become user-data (OSM fails, or would crash, on the same input). */
export class UserDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserDataError';
  }
}
