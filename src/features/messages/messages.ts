/** What the messages feature answers staff (the console's Messages screen). */
export const MESSAGE_MESSAGES = {
  notFound: "Message not found",
  stillSending: "This message is still being sent: resend it once it is sent or has failed",
} as const;
