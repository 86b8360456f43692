// What the Activity's page takes from Discord's Embedded App SDK (web/static/activity.js).
export { DiscordSDK } from "@discord/embedded-app-sdk";
