import { describe, expect, it } from "vitest";
import type { TutorExchange } from "#domain/contract/tutor";
import { endpoints } from "#domain/contract/endpoints";
import { tutorChat } from "./tutor.server";
import { LmsError, type LmsClient } from "./lms.server";

const AGGREGATE = "00000000-0000-4000-8000-000000000001";
const exchange = { id: "e1", question: "q" } as TutorExchange;

/** An LMS client answering the knowledge model and the conversation as told (an Error is thrown). */
function lms(answers: { model: unknown; conversation: unknown }): { client: LmsClient; paths: string[] } {
  const paths: string[] = [];
  const client = {
    get: async (endpoint: { path: string }) => {
      paths.push(endpoint.path);
      const answer = endpoint.path === endpoints.knowledgeModel(AGGREGATE).path ? answers.model : answers.conversation;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as LmsClient;
  return { client, paths };
}

describe("the tutor's conversation, for the tutor page and the widget (spec 7.3, 8)", () => {
  it("with a knowledge model: the chat and a fresh id for the next question, in two reads", async () => {
    const { client, paths } = lms({ model: { knowledgeModelId: "k" }, conversation: { data: [exchange] } });
    const chat = await tutorChat(client, AGGREGATE);
    expect(chat).toEqual({ available: true, exchanges: [exchange], commandId: expect.any(String) });
    expect((await tutorChat(client, AGGREGATE)).commandId).not.toBe(chat.commandId);
    expect(paths).toHaveLength(4);
  });

  it.each([404, 403, 500])(
    "the knowledge model fails (%i): no chat starts ('Chat is not available')",
    async (status) => {
      const { client } = lms({ model: new LmsError(status, {}), conversation: { data: [exchange] } });
      expect((await tutorChat(client, AGGREGATE)).available).toBe(false);
    },
  );

  it("a conversation that cannot be read is an empty one", async () => {
    const { client } = lms({ model: { knowledgeModelId: "k" }, conversation: new LmsError(500, {}) });
    expect(await tutorChat(client, AGGREGATE)).toMatchObject({ available: true, exchanges: [] });
  });

  it("anything that is not the API's answer is not hidden", async () => {
    const { client } = lms({ model: new TypeError("bug"), conversation: { data: [] } });
    await expect(tutorChat(client, AGGREGATE)).rejects.toThrow("bug");
  });
});
