/**
 * Course content (activity trees) for the demo catalog, and the demo learners' progress through it.
 *
 * For every catalog course seedActivities inserts a tree of activities and activity parts that
 * matches the course's root activity kind: a composite course gets a composite root with modules
 * and leaves (texts, videos, files, events, discussions, LTI tools); any other kind gets a single
 * root part of that kind. Then, for every objective workflow already seeded on those courses
 * (ada's, grace's and admin's), it creates activity workflows and activity records so that the
 * share of finished required leaves matches the workflow's progress, and sets each course's
 * childrenCount to the number of its root's children.
 *
 * python-basics ("Python for Data Analysis") is the activity-access showcase of spec 4.12: its parts
 * carry every activity constraint (start from in the past and the future, start until, accessible
 * until, grace period, due dates, every review and results-disclosure policy) plus a draft and an
 * archived activity. LOCK_SHOWCASE_SLUG names it.
 *
 * Dates are relative to `now`. Ids are random uuids. Idempotent: when any activity part exists for
 * the given courses it inserts nothing. Accepts the database or an open transaction (then it runs
 * in a savepoint). Objective records are left untouched.
 */
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./client";
import * as s from "./schema";
import { type CatalogSlug, type Tx } from "./seed-catalog";
import { CONSTRAINT_DATE_FIELDS } from "../../domain/activity-access";
import {
  ObjectiveState,
  ActivityKind,
  ActivityContentType,
  ActivityType,
  ObjectiveWorkflowState,
  ActivityWorkflowState,
  ProctoringSessionState,
  type ResultsDisclosurePolicy,
  type ReviewPolicy,
} from "../../domain/vocabulary";

/** The course whose parts exercise every activity lock reason and constraint of spec 4.12. */
export const LOCK_SHOWCASE_SLUG: CatalogSlug = "python-basics";

/** The demo handbook written by make-demo-pdf.ts (size in bytes, checked by the test). */
export const HANDBOOK_PDF = {
  url: "/learn/demo/course-handbook.pdf",
  fileName: "course-handbook.pdf",
  mimeType: "application/pdf",
  size: 18656,
} as const;

export const LTI_TOOL_URL = "https://tool.example/launch";

/** Constraint fields that hold dates (spec 3 'Activity constraint'): the domain's list. */
export { CONSTRAINT_DATE_FIELDS };
type ConstraintDateField = (typeof CONSTRAINT_DATE_FIELDS)[number];

/** Every constraint field of spec 3. */
export const CONSTRAINT_FIELDS = [
  ...CONSTRAINT_DATE_FIELDS,
  "resultsDisclosurePolicy",
  "reviewPolicy",
  "resultsDisclosureAbove",
] as const;

/** A constraint with dates given in days relative to `now` (negative = past). */
type ConstraintDef = Partial<Record<ConstraintDateField, number>> & {
  reviewPolicy?: ReviewPolicy;
  resultsDisclosurePolicy?: ResultsDisclosurePolicy;
  /** Normalised score (0..1) above which results are disclosed (afterScore). */
  resultsDisclosureAbove?: number;
};

// ---------------------------------------------------------------------------------------------
// Tree definitions
// ---------------------------------------------------------------------------------------------

interface NodeOpts {
  code?: string;
  optional?: boolean;
  weight?: number;
  /** Points; null/undefined = not graded. */
  maxScore?: number | null;
  manualGrading?: boolean;
  state?: ObjectiveState;
  constraint?: ConstraintDef;
  /** Activity type; defaults by kind. */
  type?: ActivityType;
  imageUrl?: string;
  duration?: number;
  proctored?: boolean;
  supportReview?: boolean;
  contentType?: ActivityContentType;
  preferredSize?: [number, number];
  /** Demo progress: every in-progress learner has finished this leaf. */
  done?: boolean;
  /** Demo progress: no in-progress learner finished this leaf (e.g. missed its deadline). */
  missed?: boolean;
}

interface EventDef {
  inDays: number;
  /** UTC hour the event starts. */
  hour: number;
  hours: number;
  timezone: string;
  location?: string;
  url?: string;
}

interface NodeDef extends NodeOpts {
  name: string;
  kind: ActivityKind;
  contentType: ActivityContentType;
  content: Record<string, unknown>;
  event?: EventDef;
  toolUrl?: string;
  children?: NodeDef[];
}

const K = ActivityKind;
const T = ActivityType;
const CT = ActivityContentType;

const VIMEO = { player: "76979871", mountain: "22439234", bunny: "1084537" } as const;

function words(html: string): number {
  const plain = html.replace(/<[^>]+>/g, " ");
  const spaced = plain.split(/\s+/).filter(Boolean).length;
  const cjk = (plain.match(/[\u3040-\u30ff\u4e00-\u9fff]/g) ?? []).length;
  return spaced + Math.round(cjk / 2);
}

/** A composite module. */
function mod(name: string, children: NodeDef[], opts: NodeOpts = {}): NodeDef {
  return { name, kind: K.composite, contentType: CT.Composite, content: {}, type: T.Composite, ...opts, children };
}
/** A rich-text page (reading time from its length). */
function text(name: string, html: string, opts: NodeOpts = {}): NodeDef {
  const minutes = Math.max(2, Math.round(words(html) / 180));
  return {
    name,
    kind: K.text,
    contentType: CT.Text,
    content: { html },
    type: opts.manualGrading ? T.Assignment : T.RichText,
    duration: minutes * 60,
    ...opts,
  };
}
function video(name: string, vimeoId: string, seconds: number, opts: NodeOpts = {}): NodeDef {
  return {
    name,
    kind: K.video,
    contentType: CT.Vimeo,
    content: { vimeoId },
    type: T.PublicFiles,
    duration: seconds,
    ...opts,
  };
}
/** The demo handbook as a public file. */
function pdf(name: string, opts: NodeOpts = {}): NodeDef {
  return {
    name,
    kind: K.text,
    contentType: CT.PublicFile,
    content: { ...HANDBOOK_PDF, pages: 6 },
    type: T.PublicFiles,
    duration: 600,
    ...opts,
  };
}
function event(name: string, ev: EventDef, description: string, opts: NodeOpts = {}): NodeDef {
  return {
    name,
    kind: K.event,
    contentType: CT.Text,
    content: { description },
    event: ev,
    type: T.Classroom,
    duration: ev.hours * 3600,
    ...opts,
  };
}
function discussion(name: string, prompt: string, opts: NodeOpts & { minReplies?: number } = {}): NodeDef {
  const { minReplies, ...rest } = opts;
  return {
    name,
    kind: K.discussion,
    contentType: CT.Text,
    content: { prompt, ...(minReplies ? { minReplies } : {}) },
    type: T.ClassDiscussion,
    ...rest,
  };
}
function lti(name: string, type: ActivityType, opts: NodeOpts = {}): NodeDef {
  return { name, kind: K.lti, contentType: CT.Lti13, content: {}, toolUrl: LTI_TOOL_URL, type, ...opts };
}

const h2 = (x: string) => `<h2>${x}</h2>`;
const h3 = (x: string) => `<h3>${x}</h3>`;
const p = (...xs: string[]) => xs.map((x) => `<p>${x}</p>`).join("");
const ul = (...xs: string[]) => `<ul>${xs.map((x) => `<li>${x}</li>`).join("")}</ul>`;
const ol = (...xs: string[]) => `<ol>${xs.map((x) => `<li>${x}</li>`).join("")}</ol>`;
const img = (n: 1 | 2 | 3 | 4, alt: string) =>
  `<p><img src="/learn/demo/diagram-${n}.svg" alt="${alt}" width="640" height="${n === 1 ? 360 : n === 2 ? 300 : 260}"></p>`;
const code = (x: string) => `<pre><code>${x}</code></pre>`;
const html = (...xs: string[]) => xs.join("");

/** Composite courses: the root's children. Other kinds: the single root leaf. */
type TreeDef = { children: NodeDef[] } | { leaf: NodeDef };

// ---------------------------------------------------------------------------------------------
// Course content
// ---------------------------------------------------------------------------------------------

const PYTHON_BASICS: NodeDef[] = [
  mod("Module 1: Getting started", [
    text(
      "Welcome to Python for Data Analysis",
      html(
        h2("Welcome to Python for Data Analysis"),
        p(
          "Spreadsheets are a fine tool until the data outgrows them: a hundred thousand rows, a file that arrives every morning, a chart that has to be rebuilt by hand every Monday. Python, together with the pandas library, lets you describe an analysis once, as code, and run it again on tomorrow's data in seconds.",
          "This course assumes no programming experience. In the first modules you write small pieces of Python in a Jupyter notebook and see the result of every line immediately. From module 3 on you work with real data: a year of journeys from a city bike-share scheme, with the messy dates, missing values and duplicated rows that real data always has.",
        ),
        h3("How the course works"),
        ul(
          "Each module has a reading, a short video and a graded quiz or lab.",
          "Quizzes can be retaken until their due date; your best attempt counts.",
          "The final project opens in week 4 and is marked by an instructor.",
          "Everything under <em>Extras</em> is optional and does not count towards your progress.",
        ),
        p(
          "Plan for about three hours per module. If you get stuck, the AI tutor in the corner of the screen knows the course material, and the discussion in module 7 is read by the instructors every working day.",
        ),
      ),
    ),
    pdf("Course handbook (PDF)", { optional: true }),
    video("Setting up Python and JupyterLab", VIMEO.player, 62),
  ]),
  mod(
    "Module 2: Python essentials",
    [
      text(
        "Variables, types and expressions",
        html(
          h2("Variables, types and expressions"),
          p(
            'A variable is a name for a value. <code>rides = 412</code> stores the whole number 412 under the name <code>rides</code>; from then on you can use the name wherever you would use the number. Python works out the type from the value: <code>412</code> is an <code>int</code>, <code>8.5</code> a <code>float</code>, <code>"Kings Cross"</code> a <code>str</code> and <code>True</code> a <code>bool</code>.',
            'Types matter because they decide what an operation means. <code>3 + 4</code> is 7, but <code>"3" + "4"</code> is the text <code>"34"</code>. Numbers read from a file often arrive as text, and a surprising number of analysis bugs come from adding up strings. The built-in functions <code>int()</code>, <code>float()</code> and <code>str()</code> convert between them.',
          ),
          code(
            'price_per_ride = 1.65\nrides = 412\nrevenue = price_per_ride * rides\nprint(f"Revenue: £{revenue:.2f}")  # Revenue: £679.80',
          ),
          h3("Lists and dictionaries"),
          p(
            'A list keeps values in order: <code>temps = [8.5, 11.0, 6.2]</code>. A dictionary maps keys to values: <code>station = {"name": "Soho", "docks": 24}</code>. Together they can describe almost any record, and they are exactly what pandas builds on in the next module.',
          ),
        ),
      ),
      lti("Quiz: Python essentials", T.Assessment, {
        maxScore: 10,
        done: true,
        constraint: { reviewPolicy: "afterSubmission" },
      }),
      text(
        "Exercise: fix the type errors",
        html(
          h2("Exercise: fix the type errors"),
          p(
            "The notebook attached to this exercise reads a small file of daily ride counts and tries to compute the weekly total. It fails with <code>TypeError: unsupported operand type(s) for +: 'int' and 'str'</code>. Find the three places where text is mixed with numbers, fix them, and submit the corrected total.",
          ),
          ol(
            "Run the notebook from the top and read the error message carefully.",
            "Print the <code>type()</code> of the values involved.",
            "Convert the values where they are read, not where they are used.",
          ),
        ),
        { maxScore: 10, missed: true, constraint: { due: -5, gracePeriodUntil: -2 } },
      ),
    ],
    { constraint: { startFrom: -21 } },
  ),
  mod(
    "Module 3: Loading data with pandas",
    [
      text(
        "Reading CSV and Excel files",
        html(
          h2("Reading CSV and Excel files"),
          p(
            "pandas represents a table as a <strong>DataFrame</strong>: labelled columns, each holding values of one type, and an <strong>index</strong> that labels the rows. A single column on its own is a <strong>Series</strong>.",
          ),
          img(
            1,
            "A DataFrame with an index on the left, column labels on top and the rides column highlighted as a Series",
          ),
          p(
            'Most data arrives as CSV. <code>pd.read_csv("journeys.csv")</code> reads the whole file and guesses the type of each column. The guesses are usually right for numbers and usually wrong for dates, so tell pandas which columns are dates with <code>parse_dates=["started_at"]</code>. Excel workbooks work the same way with <code>pd.read_excel</code>; pass <code>sheet_name</code> to pick a sheet.',
            "Always look at what you loaded before you analyse it. <code>df.head()</code> shows the first rows, <code>df.info()</code> the column types and the number of non-missing values, and <code>df.describe()</code> summary statistics for the numeric columns. Five minutes here saves hours later.",
          ),
          code(
            'import pandas as pd\n\ndf = pd.read_csv("journeys.csv", parse_dates=["started_at", "ended_at"])\ndf.info()',
          ),
        ),
      ),
      video("Your first DataFrame", VIMEO.mountain, 147),
      lti("Quiz: loading data", T.Assessment, { maxScore: 10, done: true, constraint: { reviewPolicy: "never" } }),
    ],
    { constraint: { startFrom: -14 } },
  ),
  mod(
    "Module 4: Cleaning and transforming data",
    [
      text(
        "Missing values, duplicates and types",
        html(
          h2("Missing values, duplicates and types"),
          p(
            "Real data has gaps. pandas marks a missing value as <code>NaN</code>, and most calculations skip it silently, which is convenient and dangerous at the same time: an average over 300 days of a 365-day year is still called an average. Count the gaps first with <code>df.isna().sum()</code>, then decide per column whether to drop the rows, fill them (<code>fillna</code>) or leave them.",
            'Duplicates come from exports that overlap or systems that retry. <code>df.duplicated().sum()</code> counts exact copies; <code>drop_duplicates(subset=["journey_id"])</code> keeps the first row of each journey.',
          ),
          ul(
            'Convert text to numbers with <code>pd.to_numeric(..., errors="coerce")</code>.',
            'Create new columns from old ones: <code>df["minutes"] = (df.ended_at - df.started_at).dt.total_seconds() / 60</code>.',
            "Filter rows with a condition: <code>df[df.minutes &lt; 180]</code>.",
          ),
        ),
      ),
      video("Cleaning a messy export, step by step", VIMEO.bunny, 596),
      lti("Quiz: cleaning data", T.Assessment, {
        maxScore: 10,
        done: true,
        constraint: {
          reviewPolicy: "afterRevealingResults",
          resultsDisclosurePolicy: "afterDate",
          resultsDisclosureFrom: 3,
          revealResultsFrom: 3,
        },
      }),
    ],
    { constraint: { due: 4 } },
  ),
  mod("Module 5: Grouping and joining", [
    text(
      "Group, aggregate and merge",
      html(
        h2("Group, aggregate and merge"),
        p(
          'Most questions about data are questions about groups: rides per station, average trip length per month, revenue per customer type. <code>df.groupby("station")["rides"].sum()</code> splits the table by station, sums each group and combines the results into a new Series.',
          'Data you need often lives in two tables. <code>pd.merge(journeys, stations, left_on="start_station_id", right_on="id", how="left")</code> adds the station\'s name and district to every journey, keeping journeys whose station is unknown. The <code>how</code> argument works exactly like the joins you may know from SQL.',
        ),
      ),
    ),
    video("Split, apply, combine", VIMEO.player, 62),
    lti("Quiz: grouping and joining", T.Assessment, {
      maxScore: 10,
      done: true,
      constraint: {
        reviewPolicy: "afterRevealingResults",
        resultsDisclosurePolicy: "afterDate",
        resultsDisclosureFrom: -2,
        revealResultsFrom: -2,
      },
    }),
  ]),
  mod("Module 6: Plotting", [
    text(
      "Charts with pandas and matplotlib",
      html(
        h2("Charts with pandas and matplotlib"),
        p(
          "Every DataFrame and Series has a <code>.plot()</code> method that draws with matplotlib. A line chart suits values over time, a bar chart compares categories, a histogram shows how values are distributed. Pick the chart for the question, not for the data.",
          "Label every axis, start bar charts at zero, and give the chart a title that states the finding, such as “Weekend rides peak two hours later than weekday rides”, rather than one that only names the data.",
        ),
      ),
    ),
    video("From DataFrame to chart", VIMEO.mountain, 147),
    lti("Lab: plotting ride patterns", T.JupyterLabs, {
      maxScore: 20,
      weight: 2,
      preferredSize: [1280, 800],
      constraint: {
        reviewPolicy: "afterRevealingResults",
        resultsDisclosurePolicy: "afterScore",
        resultsDisclosureAbove: 0.6,
      },
    }),
    discussion(
      "Discussion: share your first chart",
      "Post one chart from your project and the finding it shows. Then suggest one improvement to a classmate's chart.",
      {
        constraint: { reviewPolicy: "afterRevealingResults", resultsDisclosurePolicy: "never" },
      },
    ),
  ]),
  mod(
    "Module 7: Final project",
    [
      text(
        "Project brief: bike-share demand",
        html(
          h2("Project brief: bike-share demand"),
          p(
            "The city wants to know where to add docking stations next spring. Using the journeys data set, describe how demand varies by station, hour and weather, and recommend three stations to expand. Your report is read by a transport planner, not a programmer: lead with the findings and keep the code in an appendix.",
          ),
          ul(
            "At least three charts, each with a one-sentence finding.",
            "A short description of how you cleaned the data.",
            "Your notebook, runnable from top to bottom.",
          ),
        ),
      ),
      text(
        "Assignment: exploratory analysis report",
        html(
          h2("Assignment: exploratory analysis report"),
          p(
            "Upload your report (PDF) and your notebook. An instructor marks it against the rubric below within ten working days.",
          ),
          ul(
            "Question and findings (6 points)",
            "Data cleaning (4 points)",
            "Charts (6 points)",
            "Recommendation (4 points)",
          ),
        ),
        {
          maxScore: 20,
          weight: 3,
          manualGrading: true,
          constraint: { due: 21, reviewPolicy: "afterRevealingResults", resultsDisclosurePolicy: "afterFinish" },
        },
      ),
    ],
    { constraint: { startFrom: 7 } },
  ),
  mod(
    "Extras",
    [
      event(
        "Live Q&A with the instructors",
        { inDays: 2, hour: 16, hours: 1, timezone: "Europe/London", url: "https://meet.example/py-101-qa" },
        "Bring your questions about modules 3 to 5. The session is recorded.",
        { optional: true },
      ),
      video("Webinar replay: ten pandas tricks", VIMEO.bunny, 596, {
        optional: true,
        done: true,
        constraint: { accessibleUntil: -3 },
      }),
      lti("Warm-up quiz: Python trivia", T.Assessment, {
        optional: true,
        constraint: { startFrom: -30, startUntil: -2 },
      }),
      text(
        "Bonus: time series with pandas",
        html(
          h2("Time series with pandas"),
          p("Resampling, rolling windows and seasonal patterns. This bonus module is being written."),
        ),
        {
          optional: true,
          state: ObjectiveState.draft,
        },
      ),
      text(
        "Python 2 compatibility notes",
        html(
          h2("Python 2 compatibility notes"),
          p("Python 2 reached its end of life in 2020; these notes are kept for reference only."),
        ),
        {
          optional: true,
          state: ObjectiveState.archived,
        },
      ),
    ],
    { optional: true },
  ),
];

const DEEP_LEARNING_MODULES: [string, string, string, string][] = [
  [
    "Neural network foundations",
    "A neural network is a stack of simple functions: each layer multiplies its input by a weight matrix, adds a bias and applies a non-linearity such as ReLU. Without the non-linearity the whole stack would collapse into a single linear map, however many layers it had.",
    "Training adjusts the weights to reduce a loss function. Back-propagation computes the gradient of the loss with respect to every weight in one backward pass, using the chain rule; PyTorch's autograd does this bookkeeping for you.",
    "Lab: a multilayer perceptron from scratch",
  ],
  [
    "Optimisation and regularisation",
    "Stochastic gradient descent with momentum and Adam are the workhorses of deep learning. The learning rate matters more than the choice of optimiser: use a warm-up, then decay it, and plot the loss curve before changing anything else.",
    "Large networks memorise. Weight decay, dropout, data augmentation and early stopping all fight overfitting; batch normalisation and good initialisation make deep networks trainable at all.",
    "Lab: taming an overfitting model",
  ],
  [
    "Convolutional networks",
    "Images have structure that a fully connected layer ignores. A convolution slides a small filter over the image and shares its weights across positions, so a 3×3 edge detector learnt in one corner works everywhere.",
    "Stacking convolutions and pooling layers grows the receptive field: early layers respond to edges, middle layers to textures and parts, the last layers to whole objects.",
    "Lab: classifying street signs",
  ],
  [
    "Modern architectures and transfer learning",
    "Residual connections let gradients flow through hundreds of layers and made very deep networks such as ResNet practical. EfficientNet and ConvNeXt refine the recipe further.",
    "You rarely train a vision model from scratch. Start from weights pre-trained on ImageNet, replace the classification head and fine-tune: a few thousand labelled images are often enough.",
    "Lab: fine-tuning a ResNet",
  ],
  [
    "Detection and segmentation",
    "Object detectors predict boxes and classes at once. Two-stage detectors propose regions first; single-stage detectors such as YOLO trade a little accuracy for real-time speed.",
    "Segmentation labels every pixel. U-Net's encoder-decoder with skip connections remains the default for medical and satellite imagery.",
    "Lab: detecting parcels on a conveyor belt",
  ],
  [
    "Recurrent networks and sequences",
    "Text, audio and sensor readings are sequences. A recurrent network reads one element at a time and carries a hidden state forward; LSTMs and GRUs add gates that decide what to remember and what to forget.",
    "Recurrent networks are hard to parallelise and struggle with long-range dependencies, which is exactly the problem attention was invented to solve.",
    "Lab: forecasting energy demand",
  ],
  [
    "Attention",
    "Attention lets every position look directly at every other position and decide how much each one matters. Queries, keys and values are three learnt projections of the input; the attention weights are a softmax over query-key similarities.",
    "Multi-head attention runs several attention functions in parallel, so one head can track syntax while another tracks coreference.",
    "Lab: visualising attention weights",
  ],
  [
    "Transformers from scratch",
    "A transformer block is multi-head self-attention followed by a feed-forward network, each wrapped in a residual connection and layer normalisation. Positional encodings tell the model where each token sits.",
    "Encoder-only models such as BERT suit classification; decoder-only models such as GPT generate text one token at a time; encoder-decoder models translate.",
    "Lab: a character-level transformer",
  ],
  [
    "Fine-tuning language models",
    "Pre-trained language models already know grammar and a great deal about the world. Fine-tuning adapts them to your task with far less data than training from scratch.",
    "Parameter-efficient methods such as LoRA train small adapter matrices instead of all weights, which cuts memory use and lets you keep one base model with many adapters.",
    "Lab: classifying support tickets with LoRA",
  ],
  [
    "Training at scale",
    "Mixed-precision training stores activations in 16-bit floats and roughly halves memory use; gradient scaling keeps small gradients from underflowing.",
    "Data parallelism copies the model to every GPU and averages gradients; fully sharded data parallelism splits the weights too, so models larger than one GPU's memory can be trained.",
    "Lab: distributed training on four GPUs",
  ],
  [
    "Evaluation and robustness",
    "A single accuracy number hides a lot. Look at the confusion matrix, calibration and performance per subgroup, and keep a test set that nobody tunes against.",
    "Models fail under distribution shift: new cameras, new slang, a new season. Monitor input statistics and keep a small labelled sample of recent data to detect drift early.",
    "Lab: stress-testing a classifier",
  ],
  [
    "Serving and monitoring in production",
    "A model is only useful once it answers requests. Export it with TorchScript or ONNX, batch requests on the server and measure latency at the 99th percentile, not the average.",
    "In production, log predictions and inputs, alert on drift and on business metrics, and make rolling back to the previous model a one-line change.",
    "Project: deploy and monitor your model",
  ],
];

const DEEP_LEARNING: NodeDef[] = DEEP_LEARNING_MODULES.map(([title, p1, p2, lab], i) =>
  mod(`Module ${i + 1}: ${title}`, [
    text(`Reading: ${title}`, html(h2(title), p(p1, p2))),
    ...(i % 4 === 0
      ? [
          video(
            `Lecture: ${title.toLowerCase()}`,
            [VIMEO.player, VIMEO.mountain, VIMEO.bunny][i % 3],
            [62, 147, 596][i % 3],
          ),
        ]
      : []),
    lti(lab, T.JupyterLabs, i === 11 ? { maxScore: 100, weight: 3, manualGrading: true } : { maxScore: 10 }),
  ]),
);

const GERMAN_A1: NodeDef[] = [
  mod("Unit 1: Hallo! Introducing yourself", [
    text(
      "Greetings and introductions",
      html(
        h2("Hallo! Greetings and introductions"),
        p(
          "German has two ways of saying <em>you</em>: <strong>du</strong> for friends, family, children and, in many offices, colleagues; <strong>Sie</strong> for everyone else. When in doubt, start with <em>Sie</em> and wait to be offered <em>du</em>.",
          "Greetings change with the time of day and the region. <em>Guten Morgen</em> works until about ten, <em>Guten Tag</em> during the day and <em>Guten Abend</em> in the evening. In Bavaria and Austria you will hear <em>Grüß Gott</em>, in the north <em>Moin</em>.",
        ),
        ul(
          "Ich heiße Anna. – My name is Anna.",
          "Ich komme aus Kanada. – I come from Canada.",
          "Ich wohne in Berlin. – I live in Berlin.",
          "Und Sie? / Und du? – And you?",
        ),
      ),
    ),
    video("Dialogue: meeting a new colleague", VIMEO.player, 62),
  ]),
  text(
    "Unit 2: Numbers, time and dates",
    html(
      h2("Numbers, time and dates"),
      p(
        "German says the units before the tens: 21 is <em>einundzwanzig</em>, “one-and-twenty”. Telephone numbers are usually read in pairs.",
        "For the time, <em>halb drei</em> means half <strong>to</strong> three, 2:30, not half past three.",
      ),
    ),
  ),
  text(
    "Unit 3: Family and friends",
    html(
      h2("Family and friends"),
      p(
        "Every German noun has a gender: <em>der Vater</em>, <em>die Mutter</em>, <em>das Kind</em>. Learn each noun with its article.",
        "Possessives follow the gender: <em>mein Bruder</em>, <em>meine Schwester</em>.",
      ),
    ),
  ),
  mod("Unit 4: Ordering in a café", [
    text(
      "Food and drink",
      html(
        h2("Ordering in a café"),
        p(
          "<em>Ich hätte gern einen Kaffee</em> – I would like a coffee – is polite and works everywhere. <em>Zahlen, bitte!</em> asks for the bill; the waiter will ask <em>Zusammen oder getrennt?</em>, together or separately.",
        ),
        ul("ein Stück Kuchen – a piece of cake", "ein Glas Wasser – a glass of water", "Stimmt so. – Keep the change."),
      ),
    ),
    video("Dialogue: im Café", VIMEO.mountain, 147),
  ]),
  text(
    "Unit 5: Shopping",
    html(
      h2("Shopping"),
      p(
        "<em>Was kostet das?</em> – How much is that? Shops close on Sundays in most of Germany, so plan ahead.",
        "Sizes and quantities: <em>ein Kilo Äpfel</em>, <em>eine Flasche Milch</em>, <em>Größe M</em>.",
      ),
    ),
  ),
  text(
    "Unit 6: Where I live",
    html(
      h2("Where I live"),
      p(
        "Flats are described by the number of rooms, not bedrooms: a <em>Zweizimmerwohnung</em> has a living room and one bedroom.",
        "<em>Ich wohne im dritten Stock</em> – I live on the third floor.",
      ),
    ),
  ),
  mod("Unit 7: Asking the way", [
    text(
      "Directions",
      html(
        h2("Asking the way"),
        p(
          "<em>Entschuldigung, wo ist der Bahnhof?</em> The answer will use <em>links</em>, <em>rechts</em> and <em>geradeaus</em> – left, right and straight on.",
        ),
        ul(
          "an der Ampel – at the traffic lights",
          "die zweite Straße links – the second street on the left",
          "gegenüber – opposite",
        ),
      ),
    ),
    lti("Speaking practice: directions", T.Stem, { maxScore: 10 }),
  ]),
  text(
    "Unit 8: Daily routine",
    html(
      h2("Daily routine"),
      p(
        "Many everyday verbs are separable: <em>aufstehen</em> becomes <em>Ich stehe um sieben Uhr auf</em>. The prefix goes to the end of the sentence.",
      ),
    ),
  ),
  text(
    "Unit 9: Making appointments",
    html(
      h2("Making appointments"),
      p(
        "<em>Haben Sie am Dienstag Zeit?</em> – Are you free on Tuesday? <em>Um wie viel Uhr?</em> – At what time?",
        "Doctors' appointments are <em>Termine</em>; you will need one for almost everything.",
      ),
    ),
  ),
  lti("Unit 10: A1 final test", T.Assessment, { maxScore: 100, weight: 3 }),
];

const ML_ARABIC: NodeDef[] = [
  text(
    "ما هو تعلم الآلة؟",
    html(
      h2("ما هو تعلم الآلة؟"),
      p(
        "تعلم الآلة فرع من فروع الذكاء الاصطناعي يهتم ببناء أنظمة تتعلم من البيانات بدلاً من أن تُبرمج بقواعد مكتوبة يدوياً. فبدلاً من أن نكتب للحاسوب قائمة طويلة من الشروط لتمييز رسائل البريد المزعجة، نعرض عليه آلاف الرسائل المصنفة مسبقاً ونتركه يستخلص الأنماط التي تفرّق بينها.",
        "تعتمد جودة أي نموذج على جودة البيانات التي تدرّب عليها. لذلك يقضي علماء البيانات معظم وقتهم في جمع البيانات وتنظيفها وفهمها قبل اختيار الخوارزمية المناسبة.",
      ),
      img(3, "مراحل مشروع تعلم الآلة: البيانات ثم الخصائص ثم النموذج ثم التقييم"),
      p("يمر كل مشروع تعلم آلة تقريباً بالمراحل نفسها:"),
      ul(
        "جمع البيانات وتنظيفها",
        "اختيار الخصائص المؤثرة وتجهيزها",
        "تدريب النموذج وضبط معاملاته",
        "تقييم النموذج على بيانات لم يرها من قبل",
      ),
      p(
        "سنتعرف في هذه الدورة على النوعين الرئيسيين: التعلم الموجّه، حيث تكون الإجابات الصحيحة معروفة في بيانات التدريب، والتعلم غير الموجّه، حيث نبحث عن بنية خفية في بيانات غير مصنفة.",
      ),
    ),
  ),
  video("محاضرة: أنواع التعلم الآلي", VIMEO.mountain, 147),
  mod("التعلم الموجّه", [
    text(
      "الانحدار والتصنيف",
      html(
        h2("الانحدار والتصنيف"),
        p(
          "في التعلم الموجّه نملك أمثلة مكوّنة من مدخلات ومخرجات معروفة، ونريد نموذجاً يتنبأ بالمخرج لمدخلات جديدة. إذا كان المخرج رقماً، مثل سعر شقة أو عدد المبيعات في الأسبوع القادم، فالمسألة مسألة <strong>انحدار</strong>. وإذا كان المخرج فئة، مثل «احتيال» أو «سليم»، فالمسألة مسألة <strong>تصنيف</strong>.",
          "الانحدار الخطي أبسط نماذج الانحدار وأسهلها تفسيراً، وشجرة القرار من أوضح نماذج التصنيف، إذ يمكن قراءة قواعدها كما تُقرأ سلسلة من الأسئلة: هل قيمة العملية أكبر من ألف؟ هل تمت من بلد جديد؟",
        ),
      ),
    ),
    lti("مختبر: بناء أول نموذج انحدار", T.JupyterLabs, { maxScore: 20, weight: 2 }),
  ]),
  mod("التعلم غير الموجّه", [
    text(
      "التجميع باستخدام خوارزمية k-means",
      html(
        h2("التجميع باستخدام k-means"),
        p(
          "عندما لا تتوفر لدينا تصنيفات جاهزة، يمكننا أن نطلب من الخوارزمية أن تجمع البيانات المتشابهة معاً. تبدأ خوارزمية k-means باختيار عدد من المراكز، ثم تنسب كل نقطة إلى أقرب مركز، وتعيد حساب المراكز، وتكرر ذلك حتى تستقر المجموعات.",
          "من التطبيقات الشائعة تقسيم العملاء إلى شرائح حسب سلوكهم الشرائي، ثم تصميم عرض مختلف لكل شريحة.",
        ),
      ),
    ),
    video("عرض توضيحي: تقسيم العملاء إلى شرائح", VIMEO.player, 62),
  ]),
  text(
    "تقييم النماذج",
    html(
      h2("تقييم النماذج"),
      p(
        "لا يكفي أن يعمل النموذج جيداً على البيانات التي تدرّب عليها؛ المهم أداؤه على بيانات جديدة. لذلك نقسم البيانات إلى مجموعة تدريب ومجموعة اختبار لا يراها النموذج أثناء التدريب.",
        "الدقة وحدها قد تكون مضللة: إذا كانت 1٪ فقط من العمليات احتيالية، فإن نموذجاً يقول «سليم» دائماً يحقق دقة 99٪ ولا فائدة منه. لهذا نستخدم مقاييس مثل الاستدعاء والضبط ومصفوفة الالتباس.",
      ),
      ul(
        "الإفراط في التخصيص: حفظ بيانات التدريب بدلاً من تعلم النمط",
        "التحقق المتقاطع: تكرار التقسيم للحصول على تقدير أكثر ثباتاً",
      ),
    ),
    { maxScore: 10 },
  ),
  lti("الاختبار النهائي", T.Assessment, { maxScore: 100, weight: 3 }),
];

const DATA_VIZ: NodeDef[] = [
  text(
    "Why visualise? Principles of good charts",
    html(
      h2("Why visualise?"),
      p(
        "Four data sets can share the same means, variances and correlation and still look completely different when plotted; Anscombe's quartet has made that point since 1973. A chart lets the eye find patterns, clusters and outliers that a table of summary statistics hides.",
        "Good charts are built on a few perceptual facts. We compare positions along a common scale far more accurately than angles, areas or colour intensities. That is why a bar chart beats a pie chart for almost every comparison, and why a dot plot often beats both.",
      ),
      ul(
        "Show the data: prefer marks that map values to position.",
        "Remove what does not carry information: heavy gridlines, 3-D effects, redundant legends.",
        "Label directly where you can, instead of making readers match colours to a legend.",
        "Make the title state the finding.",
      ),
      p(
        "In this course every module builds one chart with D3.js, from a static bar chart to an animated, accessible dashboard.",
      ),
    ),
  ),
  mod(
    "Scales and axes",
    [
      text(
        "Linear, time and ordinal scales",
        html(
          h2("Scales map data to pixels"),
          p(
            "A D3 scale is a function from a domain (your data values) to a range (pixels or colours). <code>d3.scaleLinear().domain([0, 500]).range([0, 300])</code> turns 250 rides into 150 pixels. <code>scaleTime</code> does the same for dates and knows about months and leap years; <code>scaleBand</code> spaces categories evenly and works out bar widths.",
            "Axes are drawn from scales: <code>d3.axisBottom(x)</code> generates the ticks and labels, so the axis and the marks can never disagree.",
          ),
        ),
      ),
      video("Building an axis step by step", VIMEO.player, 62),
    ],
    { imageUrl: "/learn/demo/diagram-1.svg" },
  ),
  mod("Your first bar chart", [
    text(
      "Data joins: enter, update, exit",
      html(
        h2("Data joins"),
        p(
          'D3\'s central idea is the data join: you select elements, bind an array of data to them and tell D3 what to do with new data (enter), changed data (update) and data that disappeared (exit). <code>selection.join("rect")</code> handles all three in one call.',
          "Because the join is declarative, the same code draws the first frame and every later update, which is what makes smooth transitions easy.",
        ),
      ),
    ),
    lti("Coding lab: an animated bar chart", T.CodingLabs, { maxScore: 20, weight: 2 }),
  ]),
  text(
    "Accessible colour palettes",
    html(
      h2("Accessible colour palettes"),
      p(
        "About one in twelve men has a colour-vision deficiency. Never encode meaning in red versus green alone; vary lightness as well as hue, and add labels or patterns for the most important distinctions.",
        "Use sequential palettes for ordered values, diverging palettes when there is a meaningful midpoint, and categorical palettes with no more than about eight colours.",
      ),
    ),
    { maxScore: 10 },
  ),
  discussion(
    "Discussion: critique a chart",
    "Find a chart in the news this week. Post it with one thing it does well and one change that would make its message clearer.",
    { optional: true },
  ),
];

const SQL_FUNDAMENTALS: NodeDef[] = [
  text(
    "Relational databases in five minutes",
    html(
      h2("Relational databases in five minutes"),
      p(
        "A relational database stores data in tables. Each table describes one kind of thing – customers, orders, products – and each row is one of those things. Columns have a name and a type, and a <strong>primary key</strong> identifies every row uniquely.",
        "Tables refer to each other through <strong>foreign keys</strong>: an order row stores the id of its customer instead of copying the customer's name and address. That keeps every fact in exactly one place, so changing an address never leaves an old copy behind.",
        "SQL is the language for asking questions of this data. It is declarative: you describe the result you want, and the database works out how to produce it, using indexes where it can.",
      ),
      ul(
        "<strong>customers</strong>(id, name, city, signed_up)",
        "<strong>orders</strong>(id, customer_id, ordered_at, total)",
        "<strong>order_items</strong>(order_id, product_id, quantity, price)",
      ),
      p("These are the tables of the sample sales database you use in the practice labs."),
    ),
  ),
  mod("SELECT and WHERE", [
    text(
      "Selecting and filtering rows",
      html(
        h2("Selecting and filtering rows"),
        p(
          "<code>SELECT name, city FROM customers WHERE city = 'Leeds' ORDER BY name;</code> reads as plain English: which columns, from which table, which rows, in what order. Conditions combine with <code>AND</code> and <code>OR</code>; <code>IN</code>, <code>BETWEEN</code> and <code>LIKE</code> cover most other needs.",
          "A missing value is <code>NULL</code>, and <code>NULL</code> is never equal to anything, not even to another <code>NULL</code>. Test for it with <code>IS NULL</code>.",
        ),
      ),
    ),
    lti("Practice: querying the sales database", T.CodingLabs, { maxScore: 10 }),
  ]),
  mod("Joining tables", [
    text(
      "INNER, LEFT and FULL joins",
      html(
        h2("Joining tables"),
        p(
          "A join combines rows of two tables that match on a condition, usually a foreign key: <code>FROM orders o JOIN customers c ON c.id = o.customer_id</code>. An <strong>inner</strong> join keeps only matching pairs; a <strong>left</strong> join keeps every row of the left table and fills the right side with <code>NULL</code> when nothing matches.",
        ),
        img(2, "Venn diagrams of inner, left and full outer joins between orders and customers"),
        p(
          "Left joins answer questions such as “which customers have never ordered?”: join, then keep the rows where the order id is <code>NULL</code>.",
        ),
      ),
    ),
    video("Joins explained visually", VIMEO.mountain, 147),
    lti("Practice: joins", T.CodingLabs, { maxScore: 10 }),
  ]),
  text(
    "GROUP BY and aggregate functions",
    html(
      h2("GROUP BY and aggregates"),
      p(
        "<code>SELECT city, COUNT(*), SUM(total) FROM orders JOIN customers ON … GROUP BY city;</code> collapses the rows of each city into one. Every selected column must either be grouped or aggregated.",
        "<code>WHERE</code> filters rows before grouping; <code>HAVING</code> filters groups after it: <code>HAVING SUM(total) &gt; 10000</code>.",
      ),
    ),
    { maxScore: 10 },
  ),
  text(
    "Window functions",
    html(
      h2("Window functions"),
      p(
        "A window function computes over related rows without collapsing them: <code>SUM(total) OVER (PARTITION BY customer_id ORDER BY ordered_at)</code> is a running total per customer.",
        "Ranking functions such as <code>ROW_NUMBER()</code> and <code>RANK()</code> answer “top three per group” questions.",
      ),
    ),
    { optional: true },
  ),
  pdf("Course handbook (PDF)"),
  lti("Final quiz", T.Assessment, { maxScore: 100, weight: 3 }),
];

const AI_ETHICS: NodeDef[] = [
  text(
    "Why AI ethics matters",
    html(
      h2("Why AI ethics matters"),
      p(
        "AI systems now help decide who is invited to a job interview, who gets a loan and which patients are seen first. They make these decisions at a scale and speed no human team could match – and they can repeat a mistake thousands of times before anyone notices.",
        "Most harms are not caused by malicious engineers. They come from historical data that encodes past discrimination, from a proxy variable that stands in for a protected characteristic, or from a system used for a purpose it was never tested for.",
      ),
      ul(
        "<strong>Fairness</strong>: similar people should be treated similarly, and no group should bear the errors disproportionately.",
        "<strong>Transparency</strong>: people affected should know an AI system is involved and be able to get an explanation.",
        "<strong>Accountability</strong>: a named person or team owns the system's outcomes and can switch it off.",
      ),
      p("In this course you will apply these principles to three real cases and to a system from your own work."),
    ),
  ),
  mod(
    "Fairness",
    [
      text(
        "Case study: automated CV screening",
        html(
          h2("Case study: automated CV screening"),
          p(
            "A retailer trained a model on ten years of hiring decisions to rank incoming CVs. Because most past hires for technical roles were men, the model learnt to penalise words associated with women, such as the name of a women's college, even though gender was never an input.",
            "Removing the offending words did not fix the problem; other features still acted as proxies. The company eventually abandoned the tool.",
          ),
        ),
      ),
      video("Measuring bias", VIMEO.player, 62),
    ],
    { imageUrl: "/learn/demo/diagram-3.svg" },
  ),
  mod("Transparency and accountability", [
    text(
      "Explaining model decisions",
      html(
        h2("Explaining model decisions"),
        p(
          "Explanations serve different audiences: a developer debugging a model needs feature attributions; a rejected applicant needs to know which factors mattered and what would change the outcome.",
          "Counterfactual explanations – “your application would have been approved with an income of £2,000 more” – are often the most useful for the people affected.",
        ),
      ),
    ),
    text(
      "Regulation: the EU AI Act",
      html(
        h2("The EU AI Act"),
        p(
          "The EU AI Act sorts AI systems by risk. Practices such as social scoring are banned; high-risk systems, including those used in hiring and credit, must meet requirements on data quality, documentation, human oversight and accuracy.",
        ),
        ul(
          "Unacceptable risk: prohibited",
          "High risk: conformity assessment before use",
          "Limited risk: transparency duties",
          "Minimal risk: no new obligations",
        ),
      ),
    ),
  ]),
  discussion(
    "Discussion: a system you would not build",
    "Describe an AI application you would refuse to build or buy, and explain which principle it would violate. Respond to at least one colleague.",
    { maxScore: 10, manualGrading: true, minReplies: 1 },
  ),
];

const STRATEGIC_THINKING: NodeDef[] = [
  text(
    "What strategy is (and is not)",
    html(
      h2("What strategy is – and is not"),
      p(
        "A strategy is not a vision statement, a budget or a list of goals. It is a coherent set of choices about where to compete and how to win, made in the face of a real challenge.",
        "Richard Rumelt describes the kernel of a good strategy as three parts: a <strong>diagnosis</strong> that explains what is going on, a <strong>guiding policy</strong> for dealing with it, and <strong>coherent actions</strong> that carry the policy out. Bad strategy skips the diagnosis and mistakes ambition for a plan.",
      ),
      ul(
        "Does it name the central challenge?",
        "Does it say what we will <em>not</em> do?",
        "Do the actions reinforce each other?",
      ),
    ),
  ),
  video("Video: playing to win", VIMEO.mountain, 147),
  mod("Strategy tools", [
    text(
      "SWOT and PESTLE without the box-ticking",
      html(
        h2("SWOT and PESTLE"),
        p(
          "Frameworks are prompts for thinking, not forms to fill in. A useful SWOT ends with a choice: which strength will we use against which opportunity?",
        ),
      ),
    ),
    text(
      "Scenario planning",
      html(
        h2("Scenario planning"),
        p(
          "Pick the two most uncertain, most important drivers, cross them into four scenarios and ask which of your choices hold up in all four.",
        ),
      ),
    ),
  ]),
  text(
    "Making trade-offs",
    html(
      h2("Making trade-offs"),
      p(
        "Every real strategic choice gives something up. If the opposite of your choice sounds absurd – “we will ignore our customers” – it was not a choice.",
        "Write down the trade-offs explicitly and share them with your team; they are the part people forget first.",
      ),
    ),
    { maxScore: 10 },
  ),
  event(
    "Cohort workshop",
    { inDays: -20, hour: 9, hours: 7, timezone: "Europe/London", location: "London office, room 4.02" },
    "A one-day workshop applying the strategy kernel to your own team.",
  ),
  text(
    "Assignment: a one-page strategy",
    html(
      h2("Assignment: a one-page strategy"),
      p(
        "Write your team's strategy on one page: diagnosis, guiding policy and three coherent actions. An instructor gives written feedback and a mark out of 20.",
      ),
    ),
    { maxScore: 20, weight: 3, manualGrading: true },
  ),
];

const LEADERSHIP_ARABIC: NodeDef[] = [
  text(
    "ما الذي يميز القائد الفعال؟",
    html(
      h2("ما الذي يميز القائد الفعال؟"),
      p(
        "القيادة ليست منصباً، بل سلوك يومي. القائد الفعال يوضح لفريقه الاتجاه، ويبني الثقة، ويهيئ الظروف التي تسمح لكل فرد بأن يقدم أفضل ما لديه.",
        "تشير الدراسات إلى أن أكثر الفرق إنتاجية ليست تلك التي تضم أذكى الأفراد، بل تلك التي يشعر أعضاؤها بالأمان النفسي: يطرحون الأسئلة ويعترفون بالأخطاء دون خوف من اللوم.",
      ),
      ul("وضوح الأهداف والأولويات", "الاستماع قبل الحكم", "تقديم الملاحظات بانتظام", "تفويض المهام مع الصلاحيات"),
    ),
  ),
  mod("التواصل", [
    text(
      "الاستماع الفعّال",
      html(
        h2("الاستماع الفعّال"),
        p(
          "الاستماع الفعّال يعني أن تركز على المتحدث، وأن تعيد صياغة ما فهمته لتتأكد منه، وأن تؤجل الحكم والحلول حتى تكتمل الصورة.",
        ),
      ),
    ),
    video("تقديم الملاحظات البنّاءة", VIMEO.player, 62),
  ]),
  text(
    "بناء الفريق",
    html(
      h2("بناء الفريق"),
      p(
        "يمر كل فريق بمراحل التكوين والعصف والتطبيع والأداء. دور القائد أن يساعد الفريق على تجاوز مرحلة الخلاف بسرعة من خلال اتفاق واضح على الأدوار وطريقة العمل.",
      ),
    ),
  ),
  text(
    "اتخاذ القرار",
    html(
      h2("اتخاذ القرار"),
      p(
        "ليست كل القرارات متساوية: بعضها يمكن التراجع عنه بسهولة فيُتخذ بسرعة، وبعضها لا رجعة فيه فيستحق وقتاً أطول ومشاورة أوسع.",
      ),
    ),
    { maxScore: 10 },
  ),
  event(
    "ورشة عمل تفاعلية",
    { inDays: 12, hour: 6, hours: 4, timezone: "Asia/Riyadh", location: "مقر الشركة في الرياض، قاعة التدريب" },
    "ورشة عمل حضورية لتطبيق مهارات التواصل وبناء الفريق من خلال تمارين جماعية.",
  ),
];

const NEW_MANAGER: NodeDef[] = [
  text(
    "Your first 90 days",
    html(
      h2("Your first 90 days"),
      p(
        "Spend the first month listening: meet every team member one to one, ask what works, what does not and what they would change.",
        "By day 60, agree two or three priorities with your own manager; by day 90, you should have delivered one visible improvement.",
      ),
    ),
  ),
  text(
    "One-to-ones that work",
    html(
      h2("One-to-ones that work"),
      p(
        "A one-to-one is the team member's meeting, not a status update. Let them set the agenda and keep it even when you are busy.",
      ),
    ),
  ),
  video("Delegation without disappearing", VIMEO.mountain, 147),
  discussion("Discussion: what surprised you", "What surprised you most in your first weeks as a manager?"),
];

const NEGOTIATION: NodeDef[] = [
  text(
    "Preparing: BATNA, reservation point and ZOPA",
    html(
      h2("Preparing a negotiation"),
      p(
        "Your BATNA – best alternative to a negotiated agreement – is what you will do if there is no deal. It sets your reservation point, the worst deal you would still accept.",
        "The zone of possible agreement lies between the two sides' reservation points. If it is empty, no tactic will produce a deal.",
      ),
    ),
  ),
  video("Anchoring", VIMEO.player, 62),
  mod("Tactics", [
    text(
      "Making concessions",
      html(
        h2("Making concessions"),
        p(
          "Concede slowly, in shrinking steps, and always in exchange for something. Large or frequent concessions signal that there is much more room.",
        ),
      ),
    ),
    text(
      "Handling hardball tactics",
      html(
        h2("Handling hardball tactics"),
        p(
          "Name the tactic calmly – “it sounds like this is a take-it-or-leave-it offer” – and return to interests and criteria.",
        ),
      ),
    ),
  ]),
  event(
    "Role-play workshop",
    { inDays: 9, hour: 13, hours: 3, timezone: "Europe/London", location: "London office, room 2.11" },
    "Practise a two-party negotiation with feedback from a coach.",
  ),
  lti("Negotiation simulation", T.Stem, { maxScore: 100, weight: 2 }),
];

const GDPR: NodeDef[] = [
  text(
    "What counts as personal data",
    html(
      h2("What counts as personal data"),
      p(
        "Personal data is any information relating to an identified or identifiable person: a name, an e-mail address, a customer number, a location trace, even an IP address.",
        "Special categories – health, religion, ethnic origin, trade-union membership, biometrics – need extra protection.",
      ),
    ),
  ),
  text(
    "The six lawful bases",
    html(
      h2("The six lawful bases"),
      p("You may process personal data only on one of six lawful bases."),
      ul("Consent", "Contract", "Legal obligation", "Vital interests", "Public task", "Legitimate interests"),
    ),
  ),
  mod("Rights and breaches", [
    text(
      "Data subject rights",
      html(
        h2("Data subject rights"),
        p(
          "People may ask for a copy of their data, have it corrected or erased, object to processing and take it to another provider. Answer within one month.",
        ),
      ),
    ),
    text(
      "Reporting a breach within 72 hours",
      html(
        h2("Reporting a data breach"),
        p(
          "A lost laptop, a mis-sent e-mail or a hacked account can be a personal-data breach. Report it to the privacy team at once: the regulator must be told within 72 hours.",
        ),
      ),
    ),
  ]),
  lti("Knowledge check", T.Assessment, { maxScore: 100 }),
];

const WORKPLACE_SAFETY: NodeDef[] = [
  text(
    "Ergonomie am Bildschirmarbeitsplatz",
    html(
      h2("Ergonomie am Bildschirmarbeitsplatz"),
      p(
        "Wer acht Stunden am Tag am Bildschirm arbeitet, spürt falsche Einstellungen zuerst im Nacken, in den Schultern und im unteren Rücken. Die gute Nachricht: Die meisten Beschwerden lassen sich mit wenigen Handgriffen vermeiden.",
        "Stellen Sie den Stuhl so ein, dass die Füße flach auf dem Boden stehen und die Oberschenkel waagerecht sind. Die Oberkante des Bildschirms liegt auf Augenhöhe oder knapp darunter, etwa eine Armlänge entfernt. Die Unterarme liegen locker auf der Tischplatte, die Handgelenke bleiben gerade.",
      ),
      ul(
        "Bildschirm im rechten Winkel zum Fenster aufstellen, um Blendung zu vermeiden",
        "Nach jeder Stunde kurz aufstehen und sich bewegen",
        "Die 20-20-20-Regel: alle 20 Minuten für 20 Sekunden etwa 6 Meter weit schauen",
      ),
      p(
        "Sprechen Sie Ihre Führungskraft an, wenn Ihnen Ausstattung fehlt. Eine Arbeitsplatzbegehung durch die Fachkraft für Arbeitssicherheit ist jederzeit möglich.",
      ),
    ),
  ),
  video("Video: richtig sitzen", VIMEO.player, 62),
  mod("Brandschutz", [
    text(
      "Brände verhüten",
      html(
        h2("Brände verhüten"),
        p(
          "Die häufigsten Brandursachen im Büro sind defekte Elektrogeräte, überlastete Mehrfachsteckdosen und unbeaufsichtigte Kaffeemaschinen. Stecken Sie Mehrfachsteckdosen nie hintereinander.",
        ),
      ),
    ),
    text(
      "Verhalten im Brandfall und Fluchtwege",
      html(
        h2("Verhalten im Brandfall"),
        ol(
          "Ruhe bewahren und den Brand über 112 oder den Feuermelder melden.",
          "Gefährdete Personen warnen und mitnehmen.",
          "Das Gebäude über die gekennzeichneten Fluchtwege verlassen – niemals den Aufzug benutzen.",
          "Zum Sammelplatz gehen und dort bleiben.",
        ),
      ),
    ),
  ]),
  mod("Erste Hilfe", [
    text(
      "Die Rettungskette",
      html(
        h2("Die Rettungskette"),
        p(
          "Sofortmaßnahmen, Notruf, Erste Hilfe, Rettungsdienst, Krankenhaus: Jedes Glied zählt. Die Ersthelferinnen und Ersthelfer Ihres Standorts stehen auf dem Aushang in der Teeküche.",
        ),
      ),
    ),
    video("Die stabile Seitenlage", VIMEO.mountain, 147),
  ]),
  lti("Abschlusstest", T.Assessment, { maxScore: 100, weight: 2 }),
];

const GIT_WORKFLOWS: NodeDef[] = [
  text(
    "How Git stores history",
    html(
      h2("How Git stores history"),
      p(
        "Git records snapshots, not differences. Every commit points to a complete tree of files and to its parent commit, and its id is a hash of all of that, so history cannot be changed without every later id changing too.",
        "A branch is nothing more than a movable pointer to a commit. Creating one is instant; merging joins two lines of history with a commit that has two parents.",
      ),
      img(4, "A feature branch leaving main, receiving three commits and merging back through a pull request"),
    ),
    { imageUrl: "/learn/demo/diagram-4.svg" },
  ),
  mod("Branching strategies", [
    text(
      "Trunk-based development",
      html(
        h2("Trunk-based development"),
        p(
          "Everyone integrates into main at least daily, behind feature flags if the work is not finished. Short-lived branches mean small, easy reviews and few conflicts.",
        ),
      ),
    ),
    text(
      "Feature branches and pull requests",
      html(
        h2("Feature branches and pull requests"),
        p(
          "A pull request is a conversation about a change. Keep it small, describe why as well as what, and review others' pull requests as promptly as you would like yours reviewed.",
        ),
      ),
    ),
  ]),
  video("Rebase or merge?", VIMEO.player, 62),
  lti("Lab: resolve a merge conflict", T.CodingLabs, { maxScore: 10 }),
];

const TESTING_STRATEGIES: NodeDef[] = [
  text(
    "The testing pyramid",
    html(
      h2("The testing pyramid"),
      p(
        "A healthy test suite has many fast unit tests at the bottom, fewer integration tests in the middle and a small number of end-to-end tests at the top. The shape follows cost: the higher a test sits, the slower it runs, the more it can break for unrelated reasons and the harder a failure is to diagnose.",
        "The pyramid is a guideline, not a law. A thin service that mostly moves data between a queue and a database gets more value from integration tests than from mocking every call; a rich domain model deserves thorough unit tests.",
      ),
      ul(
        "Unit: one function or class, no I/O, milliseconds.",
        "Integration: real database, real HTTP, seconds.",
        "End-to-end: the deployed system through its UI, minutes.",
      ),
      p("Whatever the mix, every test should fail for exactly one reason and tell you what that reason is."),
    ),
  ),
  mod("Unit tests", [
    text(
      "What makes a good unit test",
      html(
        h2("What makes a good unit test"),
        p(
          "Arrange, act, assert. Test behaviour through the public interface, not implementation details, so refactoring does not break the suite.",
        ),
      ),
    ),
    lti("Lab: test a pricing function", T.CodingLabs, { maxScore: 10 }),
  ]),
  text(
    "Integration tests",
    html(
      h2("Integration tests"),
      p(
        "Run against real dependencies where you can – a throwaway database in a container is cheap. Mock only what you do not own and cannot run locally.",
      ),
    ),
  ),
  video("End-to-end tests with a real browser", VIMEO.mountain, 147),
  text(
    "Keeping the suite fast and trustworthy",
    html(
      h2("Flaky tests"),
      p(
        "A test that fails one run in fifty trains everyone to press “retry”. Quarantine flaky tests at once and fix the cause: usually timing, shared state or test order.",
      ),
    ),
  ),
  text(
    "Final assignment: a test plan",
    html(
      h2("Final assignment: a test plan"),
      p(
        "Write a test plan for a service you work on: which behaviours you test at which level, what you deliberately do not test, and how long the suite may take. An instructor marks it.",
      ),
    ),
    { maxScore: 100, weight: 3, manualGrading: true },
  ),
];

const LEGACY_COBOL: NodeDef[] = [
  text(
    "The billing system at a glance",
    html(
      h2("The billing system at a glance"),
      p("Nightly batch jobs read the day's usage records, rate them and write invoices to the print file."),
    ),
  ),
  text(
    "Reading COBOL: divisions and paragraphs",
    html(
      h2("Reading COBOL"),
      p(
        "Every program has four divisions: identification, environment, data and procedure. Logic lives in paragraphs of the procedure division.",
      ),
    ),
  ),
  lti("Lab: fix a failing batch job", T.VirtualLabs, { maxScore: 100 }),
];

const JAPANESE_BUSINESS: NodeDef[] = [
  text(
    "ビジネス日本語とは",
    html(
      h2("ビジネス日本語とは"),
      p(
        "ビジネス日本語は、職場で相手との関係を大切にしながら、正確に情報を伝えるための言葉です。文法そのものは日常会話と同じですが、相手や場面によって言葉づかいを使い分けることが求められます。",
        "たとえば、同僚には「明日来ますか」と聞けても、取引先には「明日お越しになりますか」と言います。この使い分けの中心にあるのが敬語です。",
      ),
      ul(
        "社内と社外で言葉を使い分ける",
        "結論から先に伝える",
        "依頼するときはクッション言葉を使う（「恐れ入りますが」など）",
      ),
      p("このコースでは、自己紹介、メール、電話応対という三つの場面を中心に練習します。"),
    ),
  ),
  text(
    "敬語の基本：尊敬語・謙譲語・丁寧語",
    html(
      h2("敬語の基本"),
      p(
        "尊敬語は相手の行為を高め、謙譲語は自分の行為を低めることで相手を立てます。丁寧語の「です・ます」はどの場面でも使えます。",
      ),
      ul(
        "言う → おっしゃる（尊敬語）／申す（謙譲語）",
        "行く → いらっしゃる（尊敬語）／伺う（謙譲語）",
        "見る → ご覧になる（尊敬語）／拝見する（謙譲語）",
      ),
    ),
  ),
  video("自己紹介の練習", VIMEO.player, 62),
  mod("ビジネスメール", [
    text(
      "メールの構成",
      html(
        h2("メールの構成"),
        p("宛名、挨拶、名乗り、本文、結びの言葉、署名の順に書きます。件名は内容がひと目でわかるように具体的にします。"),
      ),
    ),
    text(
      "よく使う表現",
      html(
        h2("よく使う表現"),
        ul("いつもお世話になっております。", "ご確認のほど、よろしくお願いいたします。", "取り急ぎご連絡いたします。"),
      ),
    ),
  ]),
  mod("電話応対", [
    text(
      "電話を受ける",
      html(
        h2("電話を受ける"),
        p(
          "電話は三回鳴る前に取り、「はい、ノースウィンド株式会社でございます」と名乗ります。相手の名前と用件は必ずメモを取り、復唱して確認します。",
        ),
      ),
    ),
    video("ロールプレイ：取り次ぎ", VIMEO.mountain, 147),
  ]),
  event(
    "オンライン会話練習",
    { inDays: 6, hour: 10, hours: 1, timezone: "Asia/Tokyo", url: "https://meet.example/jp-101-kaiwa" },
    "講師と少人数で自己紹介と電話応対を練習します。",
  ),
  discussion(
    "ディスカッション：職場での言葉の失敗談",
    "敬語や言葉づかいで困った経験を共有し、ほかの受講者の投稿に一つコメントしてください。",
    { optional: true },
  ),
  lti("確認テスト", T.Assessment, { maxScore: 100, weight: 2 }),
];

const ARABIC_BEGINNERS: NodeDef[] = [
  text(
    "The Arabic alphabet",
    html(
      h2("The Arabic alphabet"),
      p(
        "Arabic is written from right to left with an alphabet of 28 letters. All of them are consonants or long vowels; short vowels are shown with small marks above or below the letters, and most everyday texts leave them out.",
        "Letters join to their neighbours, so most letters have up to four shapes: on their own, at the start, in the middle and at the end of a word. Six letters – ا د ذ ر ز و – never join to the letter after them, which is why words sometimes look broken into pieces.",
      ),
      ul(
        "ب ت ث share one shape and differ only in their dots.",
        "ج ح خ are distinguished the same way.",
        "Hamza (ء) marks a glottal stop and can sit on several carriers.",
      ),
      p(
        "In this course you learn the letters in families that share a shape, so you can read simple words from the second lesson on.",
      ),
    ),
  ),
  video("Letter forms: initial, medial and final", VIMEO.player, 62),
  mod("Greetings", [
    text(
      "Everyday greetings",
      html(
        h2("Everyday greetings"),
        ul(
          "السلام عليكم (as-salāmu ʿalaykum) – peace be upon you; the reply is وعليكم السلام",
          "صباح الخير (ṣabāḥ al-khayr) – good morning; reply صباح النور",
          "كيف حالك؟ (kayfa ḥāluk?) – how are you?",
          "شكراً (shukran) – thank you",
        ),
      ),
    ),
    lti("Pronunciation practice", T.Stem, { maxScore: 10 }),
  ]),
  text(
    "Numbers 1–10",
    html(
      h2("Numbers 1–10"),
      p(
        "Arabic numerals as used in the Gulf and Egypt: ١ ٢ ٣ ٤ ٥ ٦ ٧ ٨ ٩ ١٠. Numbers are written left to right even inside right-to-left text.",
      ),
    ),
    { maxScore: 10 },
  ),
  event(
    "Weekly live practice",
    { inDays: 3, hour: 17, hours: 1, timezone: "Asia/Dubai", url: "https://meet.example/ar-101-practice" },
    "Practise greetings and introductions with a native speaker.",
    { optional: true },
  ),
  lti("Unit test", T.Assessment, { maxScore: 100, weight: 2 }),
];

const EXCEL_ARCHIVED: NodeDef[] = [
  text(
    "PivotTables",
    html(h2("PivotTables"), p("Drag fields into rows, columns and values to summarise thousands of rows in seconds.")),
  ),
  text(
    "Recording macros",
    html(
      h2("Recording macros"),
      p("The macro recorder writes VBA for every action you take; tidy the result before reusing it."),
    ),
  ),
  video("Pivot charts", VIMEO.player, 62),
  lti("Final quiz", T.Assessment, { maxScore: 100 }),
];

const STATS_REFRESHER = text(
  "Statistics Refresher",
  html(
    h2("Statistics refresher"),
    p(
      "The <strong>mean</strong> is the sum of the values divided by their number; the <strong>median</strong> is the middle value once they are sorted. For symmetric data they agree. For skewed data – salaries, house prices, the length of support calls – a few large values pull the mean up while the median stays put, so report the median, or both.",
      "<strong>Variance</strong> measures spread: the average squared distance from the mean. Its square root, the <strong>standard deviation</strong>, is in the same units as the data, which makes it easier to read. For roughly normal data, about two thirds of the values lie within one standard deviation of the mean and about 95% within two.",
    ),
    h3("Distributions you will meet"),
    ul(
      "<strong>Normal</strong>: the bell curve of measurement errors and heights.",
      "<strong>Binomial</strong>: the number of successes in a fixed number of yes/no trials, such as conversions out of 1,000 visits.",
      "<strong>Poisson</strong>: counts of events in an interval – calls per hour, defects per batch.",
      "<strong>Log-normal</strong>: positive, right-skewed quantities such as incomes and response times.",
    ),
    p(
      "Finally, a sample is not the population. A statistic computed from a sample comes with uncertainty; a confidence interval states it honestly. “Average delivery time 3.2 days (95% CI 3.0–3.4)” says far more than “3.2 days”.",
    ),
  ),
);

const BUSINESS_ENGLISH = text(
  "Business English Writing",
  html(
    h2("Business English writing"),
    p(
      "Busy readers decide within a few seconds whether to read on. Put the point first: the decision you need, the answer to the question, the problem you found. Background and detail come afterwards, for those who want them.",
      "Prefer short words and short sentences. “We will start the project in March” is clearer than “The commencement of the project is scheduled to take place in March”. Use the active voice unless you have a reason not to, and cut words such as <em>very</em>, <em>really</em> and <em>in order to</em>.",
    ),
    h3("A checklist for every e-mail"),
    ol(
      "Does the subject line say what the e-mail is about and what you need?",
      "Is the request or conclusion in the first two sentences?",
      "Would a colleague from another department understand every abbreviation?",
      "Have you said who does what by when?",
    ),
    p(
      "The model texts in this reading list show the same message written badly and well: a delay notice, a proposal summary and a reply to a complaint.",
    ),
  ),
);

const CODE_OF_CONDUCT = text(
  "Code of Conduct 2025",
  html(
    h2("Code of Conduct 2025"),
    p(
      "Our code of conduct describes how we treat each other, our customers and our partners. It applies to everyone who works for or on behalf of Northwind.",
      "This 2025 edition has been replaced by the 2026 edition and is kept for reference.",
    ),
    ul("Treat people with respect", "Avoid conflicts of interest", "Protect information", "Speak up about concerns"),
  ),
);

const TREES: Record<CatalogSlug, TreeDef> = {
  "python-basics": { children: PYTHON_BASICS },
  "ml-intro": {
    leaf: lti("Introduction to Machine Learning", T.JupyterLabs, { maxScore: 100, preferredSize: [1440, 900] }),
  },
  "ml-arabic": { children: ML_ARABIC },
  "data-viz": { children: DATA_VIZ },
  "sql-fundamentals": { children: SQL_FUNDAMENTALS },
  "deep-learning": { children: DEEP_LEARNING },
  "ai-ethics": { children: AI_ETHICS },
  "stats-refresher": { leaf: STATS_REFRESHER },
  "leading-teams": {
    leaf: event(
      "Leading High-Performing Teams",
      {
        inDays: 30,
        hour: 8,
        hours: 32,
        timezone: "Europe/London",
        location: "London office, 1 Canada Square, training suite",
      },
      "Two days, 9:00–17:00, lunch provided. Day 1: trust and psychological safety. Day 2: delegation and feedback.",
      { duration: 16 * 3600 },
    ),
  },
  "feedback-conversations": { leaf: video("Giving and Receiving Feedback", VIMEO.mountain, 1140, { maxScore: 100 }) },
  "strategic-thinking": { children: STRATEGIC_THINKING },
  "leadership-arabic": { children: LEADERSHIP_ARABIC },
  "coaching-skills": {
    leaf: discussion(
      "Coaching Skills Workshop",
      "Describe a coaching conversation you will have in the next two weeks: the person's goal, the questions you plan to ask and what you will avoid doing. Then respond to two peers with one question that could deepen their conversation.",
      { minReplies: 2 },
    ),
  },
  "new-manager": { children: NEW_MANAGER },
  "project-management": {
    leaf: lti("Project Management Fundamentals", T.Scorm, {
      contentType: CT.Lti11,
      maxScore: 100,
      preferredSize: [1024, 768],
    }),
  },
  negotiation: { children: NEGOTIATION },
  "info-security": { leaf: lti("Information Security Awareness 2026", T.Scorm, { maxScore: 10 }) },
  "gdpr-essentials": { children: GDPR },
  "anti-bribery": { leaf: lti("Anti-Bribery and Corruption", T.Scorm, { maxScore: 10 }) },
  "workplace-safety": { children: WORKPLACE_SAFETY },
  "code-of-conduct": { leaf: CODE_OF_CONDUCT },
  "harassment-prevention": { leaf: video("Preventing Harassment at Work", VIMEO.player, 1320, { maxScore: 10 }) },
  "typescript-deep-dive": { leaf: lti("TypeScript Deep Dive", T.CodingLabs, { maxScore: 100 }) },
  "git-workflows": { children: GIT_WORKFLOWS },
  "secure-coding": { leaf: lti("Secure Coding Practices", T.VirtualLabs, { maxScore: 20 }) },
  "cloud-architecture": { leaf: lti("Cloud Architecture on AWS", T.VirtualLabs, { maxScore: 100 }) },
  "testing-strategies": { children: TESTING_STRATEGIES },
  "kubernetes-ops": { leaf: lti("Kubernetes Operations", T.VirtualLabs, { maxScore: 100 }) },
  "legacy-cobol": { children: LEGACY_COBOL },
  capstone: { leaf: lti("Capstone Project: Analytics Portfolio", T.Assignment, { maxScore: 20, manualGrading: true }) },
  "japanese-business": { children: JAPANESE_BUSINESS },
  "business-english": { leaf: BUSINESS_ENGLISH },
  "arabic-beginners": { children: ARABIC_BEGINNERS },
  "spanish-conversation": {
    leaf: discussion(
      "Spanish Conversation Club",
      "Esta semana: ¿qué hiciste el fin de semana? Escribe cinco frases en pasado y responde a dos compañeros con una pregunta.",
      { minReplies: 2 },
    ),
  },
  "german-a1": { children: GERMAN_A1 },
  onboarding: { leaf: lti("Welcome to Northwind", T.Scorm, { contentType: CT.Lti11 }) },
  "excel-archived": { children: EXCEL_ARCHIVED },
  "learning-survey": { leaf: lti("Quarterly Learning Survey", T.Survey, {}) },
  "design-thinking": {
    leaf: event(
      "Design Thinking Sprint",
      { inDays: 45, hour: 7, hours: 104, timezone: "Europe/Berlin", location: "Berlin office, Innovation Lab" },
      "Five days, Monday to Friday 9:00–17:00, from problem framing to a prototype tested with real users.",
      { duration: 40 * 3600 },
    ),
  },
  "physics-lab": { leaf: lti("Physics Lab Simulations", T.Stem, { maxScore: 100, preferredSize: [1200, 800] }) },
  "board-papers": {
    leaf: {
      name: "Board Papers Reading Room",
      kind: K.text,
      contentType: CT.PrivateFile,
      type: T.PrivateFiles,
      content: {
        path: "private/board/2026-q2-board-pack.pdf",
        fileName: "2026-q2-board-pack.pdf",
        mimeType: "application/pdf",
        size: HANDBOOK_PDF.size,
      },
    },
  },
  "cyber-exam": { leaf: lti("Cyber Security Certification Exam", T.Assessment, { maxScore: 100, duration: 5400 }) },
  "privacy-exam": {
    leaf: lti("Data Protection Officer Certification Exam", T.Assessment, { maxScore: 100, duration: 7200 }),
  },
  "mentoring-circle": {
    leaf: event(
      "Mentoring Circle",
      { inDays: 14, hour: 15, hours: 1.5, timezone: "Europe/London", location: "London office, room 3.05" },
      "Groups of six meet once a month with a senior mentor.",
    ),
  },
};

/** The tree definitions by course slug (exported for the test). */
export const ACTIVITY_TREES: Readonly<Record<CatalogSlug, TreeDef>> = TREES;

// ---------------------------------------------------------------------------------------------
// Building rows
// ---------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

type ActivityRow = typeof s.activities.$inferInsert;
type PartRow = typeof s.activityParts.$inferInsert;

/** One leaf of a built tree with what the progress seeding needs to know. */
interface BuiltLeaf {
  partId: string;
  optional: boolean;
  state: ObjectiveState;
  maxScore: number | null;
  manualGrading: boolean;
  contentType: ActivityContentType;
  /** Startable now: ready or expired, no draft ancestor, no start date in the future. */
  startable: boolean;
  done: boolean;
  missed: boolean;
  /** Earliest of accessibleUntil / gracePeriodUntil / startUntil (ms), own or inherited: a learner finished it before then. */
  deadline: number | null;
  /** Taken under a proctor: every attempt at it has a proctoring session. */
  proctored: boolean;
}

function constraintOf(def: ConstraintDef | undefined, now: Date): Record<string, string> {
  const out: Record<string, string> = {};
  if (!def) return out;
  for (const field of CONSTRAINT_DATE_FIELDS) {
    const days = def[field];
    if (days !== undefined) out[field] = new Date(now.getTime() + days * DAY_MS).toISOString();
  }
  if (def.reviewPolicy) out.reviewPolicy = def.reviewPolicy;
  if (def.resultsDisclosurePolicy) out.resultsDisclosurePolicy = def.resultsDisclosurePolicy;
  // The contract types constraint values as strings (domain/contract/lifecycle.ts TreeNode).
  if (def.resultsDisclosureAbove !== undefined) out.resultsDisclosureAbove = String(def.resultsDisclosureAbove);
  return out;
}

function eventContent(def: NodeDef, now: Date): Record<string, unknown> {
  if (!def.event) return def.content;
  const { inDays, hour, hours, timezone, location, url } = def.event;
  const day = new Date(now.getTime() + inDays * DAY_MS);
  const startsAt = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour));
  const endsAt = new Date(startsAt.getTime() + hours * HOUR_MS);
  return {
    ...def.content,
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
    timezone,
    ...(location ? { location } : {}),
    ...(url ? { url } : {}),
  };
}

interface CourseRow {
  id: string;
  name: string;
  code: string;
  type: ActivityType;
  activityKind: ActivityKind;
  activityState: ObjectiveState;
  proctored: boolean;
  supportReview: boolean;
}

/** Activities and parts of one course, plus its leaves in tree order. */
function buildCourse(course: CourseRow, tree: TreeDef, tenantId: string, now: Date) {
  const activities: ActivityRow[] = [];
  const parts: PartRow[] = [];
  const leaves: BuiltLeaf[] = [];
  const uuid = () => crypto.randomUUID();

  const isComposite = course.activityKind === ActivityKind.composite;
  if (isComposite !== "children" in tree) {
    throw new Error(
      `seedActivities: the tree of ${course.code} does not match its activity kind ${course.activityKind}`,
    );
  }
  const rootDef: NodeDef = "children" in tree ? mod(course.name, tree.children) : { ...tree.leaf, name: course.name };
  if (rootDef.kind !== course.activityKind) {
    throw new Error(
      `seedActivities: root of ${course.code} is kind ${rootDef.kind}, the course says ${course.activityKind}`,
    );
  }

  const visit = (
    def: NodeDef,
    parentPartId: string | null,
    axis: string,
    order: number,
    root: boolean,
    inherited: { draft: boolean; startFrom: number | null; deadline: number | null },
  ) => {
    const activityId = uuid();
    const partId = uuid();
    const state = root ? course.activityState : (def.state ?? ObjectiveState.ready);
    const maxScore = def.kind === ActivityKind.composite ? null : (def.maxScore ?? null);
    activities.push({
      id: activityId,
      tenantId,
      name: def.name,
      code: root ? course.code : (def.code ?? `${course.code}-${axis.replace(/\./g, "-")}`),
      kind: def.kind,
      contentType: def.contentType,
      type: root ? course.type : (def.type ?? T.None),
      state,
      content: eventContent(def, now),
      preferredWidth: def.preferredSize?.[0] ?? null,
      preferredHeight: def.preferredSize?.[1] ?? null,
      supportReview: root ? course.supportReview : (def.supportReview ?? true),
      supportCollaborativeMode: def.kind === ActivityKind.discussion,
      supportPersonalMode: true,
      supportLtiGrading: def.kind === ActivityKind.lti && maxScore !== null,
      proctored: root ? course.proctored : (def.proctored ?? false),
      duration: def.duration ?? null,
      toolUrl: def.toolUrl ?? null,
      imageUrl: def.imageUrl ?? null,
      maxScore,
      manualGrading: def.manualGrading ?? false,
    });
    parts.push({
      id: partId,
      objectiveId: course.id,
      parentPartId,
      activityId,
      order,
      optional: def.optional ?? false,
      scoreWeight: def.weight ?? 1,
      axis,
      constraint: constraintOf(def.constraint, now),
    });
    const startFrom = def.constraint?.startFrom ?? inherited.startFrom;
    const draft = inherited.draft || state === ObjectiveState.draft;
    const ends = [
      def.constraint?.accessibleUntil,
      def.constraint?.gracePeriodUntil,
      def.constraint?.startUntil,
      inherited.deadline ?? undefined,
    ];
    const deadlineDays = ends.filter((x): x is number => x !== undefined);
    const deadline = deadlineDays.length ? Math.min(...deadlineDays) : null;
    if (def.kind === ActivityKind.composite) {
      (def.children ?? []).forEach((child, i) => {
        const childAxis = root ? String(i + 1).padStart(2, "0") : `${axis}.${String(i + 1).padStart(2, "0")}`;
        visit(child, partId, childAxis, i + 1, false, { draft, startFrom, deadline });
      });
    } else {
      leaves.push({
        partId,
        optional: def.optional ?? false,
        state,
        maxScore,
        manualGrading: def.manualGrading ?? false,
        contentType: def.contentType,
        startable: !draft && state !== ObjectiveState.archived && (startFrom === null || startFrom <= 0),
        done: def.done ?? false,
        missed: def.missed ?? false,
        deadline: deadline === null ? null : now.getTime() + deadline * DAY_MS,
        proctored: root ? course.proctored : (def.proctored ?? false),
      });
    }
  };
  // The root sorts before its children ("0" < "01" < "01.01" < "02"…).
  visit(rootDef, null, "0", 0, true, { draft: false, startFrom: null, deadline: null });
  return { activities, parts, leaves, rootChildren: "children" in tree ? tree.children.length : 0 };
}

// ---------------------------------------------------------------------------------------------
// Progress of the seeded workflows
// ---------------------------------------------------------------------------------------------

type WorkflowRow = typeof s.objectiveWorkflows.$inferSelect;
type AwRow = typeof s.activityWorkflows.$inferInsert;
type RecRow = typeof s.activityRecords.$inferInsert;
type SessionRow = typeof s.proctoringSessions.$inferInsert;

/** Score variation between activities of one attempt, so not every activity has the same ratio. */
const JITTER = [0, 0.1, -0.1, 0.05, -0.05, 0.15, -0.15];
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Activity workflows and records for one objective workflow. In progress: the leaves marked `done`
 * plus the next required startable leaves in tree order, until finished / required ≈ progress, and
 * one more leaf in progress. Submitted and later: every startable leaf finished; manually graded
 * leaves wait in grading (no score) until the course is graded (state 4 on).
 */
function progressRows(
  wf: WorkflowRow,
  leaves: BuiltLeaf[],
  record: { score: number | null; maxScore: number | null } | null,
  now: Date,
) {
  const aws: AwRow[] = [];
  const records: RecRow[] = [];
  const required = leaves.filter((l) => !l.optional && l.state !== ObjectiveState.archived);
  let finished: BuiltLeaf[];
  let inProgress: BuiltLeaf | null = null;
  if (wf.state === ObjectiveWorkflowState.inProgress) {
    const target = Math.round(wf.progress * required.length);
    const chosen = new Set(leaves.filter((l) => l.done && l.startable));
    let count = required.filter((l) => chosen.has(l)).length;
    for (const l of required) {
      if (count >= target) break;
      if (!l.startable || l.missed || chosen.has(l)) continue;
      chosen.add(l);
      count++;
    }
    finished = leaves.filter((l) => chosen.has(l));
    inProgress = required.find((l) => l.startable && !l.missed && !chosen.has(l)) ?? null;
  } else {
    finished = leaves.filter((l) => l.startable);
  }
  // Tree order, except that leaves with a closing date come first: they were finished before it.
  const closes = (l: BuiltLeaf) => l.deadline ?? Number.MAX_SAFE_INTEGER;
  finished = [...finished].sort((a, b) => closes(a) - closes(b));

  const ratio = record && record.score !== null && record.maxScore ? record.score / record.maxScore : 0.85;
  const unresolved = !!record && record.score === null;
  const start = (wf.started ?? new Date(now.getTime() - 7 * DAY_MS)).getTime();
  const end = Math.max(start + HOUR_MS, (wf.submitted ?? new Date(now.getTime() - HOUR_MS)).getTime());
  const steps = finished.length + (inProgress ? 1 : 0);
  const slot = (end - start) / Math.max(1, steps);
  finished.forEach((leaf, i) => {
    const started = new Date(start + slot * i + 5 * MINUTE_MS);
    const done = new Date(Math.min(started.getTime() + Math.min(slot * 0.8, 50 * MINUTE_MS), end));
    const awaitingGrade = leaf.manualGrading && wf.state < ObjectiveWorkflowState.graded;
    const id = crypto.randomUUID();
    aws.push({
      id,
      objectiveWorkflowId: wf.id,
      activityPartId: leaf.partId,
      userId: wf.userId,
      state: awaitingGrade ? ActivityWorkflowState.inGrading : ActivityWorkflowState.finished,
      started,
      finished: done,
    });
    let score: number | null = null;
    if (leaf.maxScore !== null && !awaitingGrade && !(unresolved && leaf.manualGrading)) {
      score = Math.round(leaf.maxScore * clamp01(ratio + JITTER[i % JITTER.length]));
    }
    records.push({
      activityWorkflowId: id,
      objectiveWorkflowId: wf.id,
      activityPartId: leaf.partId,
      userId: wf.userId,
      score,
      maxScore: leaf.maxScore,
      passed: score === null || leaf.maxScore === null ? null : score / leaf.maxScore >= 0.6,
      finished: done,
    });
  });
  if (inProgress) {
    aws.push({
      id: crypto.randomUUID(),
      objectiveWorkflowId: wf.id,
      activityPartId: inProgress.partId,
      userId: wf.userId,
      state: ActivityWorkflowState.inProgress,
      started: new Date(start + slot * finished.length + 5 * MINUTE_MS),
      finished: null,
      resume:
        inProgress.contentType === CT.PublicFile
          ? { page: 3 }
          : inProgress.contentType === CT.Vimeo
            ? { seconds: 41 }
            : null,
    });
  }
  // Spec 4.8: a proctored activity's sitting. Submitted attempts were reviewed by the proctor; an
  // attempt still in progress had its session end (completed) before it was submitted — the proctor
  // lock of docs/decisions/010-proctor-lock.md.
  const sessions: SessionRow[] = [];
  for (const aw of aws) {
    const leaf = leaves.find((l) => l.partId === aw.activityPartId);
    if (!leaf?.proctored || !aw.started) continue;
    const created = new Date((aw.started as Date).getTime() + MINUTE_MS);
    const completed = aw.finished
      ? (aw.finished as Date)
      : new Date(Math.min(created.getTime() + 100 * MINUTE_MS, now.getTime() - MINUTE_MS));
    sessions.push({
      id: crypto.randomUUID(),
      activityWorkflowId: aw.id!,
      userId: wf.userId,
      state:
        wf.state === ObjectiveWorkflowState.inProgress
          ? ProctoringSessionState.completed
          : ProctoringSessionState.reviewed,
      created,
      completed,
    });
  }
  return { aws, records, sessions };
}

// ---------------------------------------------------------------------------------------------
// seedActivities
// ---------------------------------------------------------------------------------------------

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Seeds the activity trees of the catalog courses in `objectiveIds` (slug → id, as returned by
 * seedCatalog) and the activity workflows of the workflows already seeded on them. Courses of the
 * tenant that are not in the map (such as seed-big's generated courses) are left without a tree.
 */
export async function seedActivities(
  db: Db | Tx,
  input: { tenantId: string; objectiveIds: Partial<Record<string, string>>; now?: Date },
): Promise<void> {
  const { tenantId } = input;
  const now = input.now ?? new Date();
  const slugById = new Map<string, CatalogSlug>();
  for (const [slug, id] of Object.entries(input.objectiveIds)) {
    if (id && slug in TREES) slugById.set(id, slug as CatalogSlug);
  }
  const ids = [...slugById.keys()];
  if (ids.length === 0) return;

  await (db as Db).transaction(async (tx) => {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(s.activityParts)
      .where(inArray(s.activityParts.objectiveId, ids));
    if (n > 0) return;

    const courses = await tx
      .select({
        id: s.objectives.id,
        name: s.objectives.name,
        code: s.objectives.code,
        type: s.objectives.type,
        activityKind: s.objectives.activityKind,
        activityState: s.objectives.activityState,
        proctored: s.objectives.proctored,
        supportReview: s.objectives.supportReview,
      })
      .from(s.objectives)
      .where(and(eq(s.objectives.tenantId, tenantId), inArray(s.objectives.id, ids)));

    const activityRows: ActivityRow[] = [];
    const partRows: PartRow[] = [];
    const leavesByCourse = new Map<string, BuiltLeaf[]>();
    for (const course of courses) {
      const built = buildCourse(course, TREES[slugById.get(course.id)!], tenantId, now);
      activityRows.push(...built.activities);
      partRows.push(...built.parts);
      leavesByCourse.set(course.id, built.leaves);
    }
    if (partRows.length === 0) return;

    const workflows = await tx
      .select()
      .from(s.objectiveWorkflows)
      .where(
        inArray(
          s.objectiveWorkflows.objectiveId,
          courses.map((c) => c.id),
        ),
      );
    const recordIds = workflows.map((w) => w.objectiveRecordId).filter((x): x is string => !!x);
    const recordRows = recordIds.length
      ? await tx
          .select({ id: s.objectiveRecords.id, score: s.objectiveRecords.score, maxScore: s.objectiveRecords.maxScore })
          .from(s.objectiveRecords)
          .where(inArray(s.objectiveRecords.id, recordIds))
      : [];
    const recordById = new Map(recordRows.map((r) => [r.id, r]));
    const awRows: AwRow[] = [];
    const arRows: RecRow[] = [];
    const sessionRows: SessionRow[] = [];
    for (const wf of workflows) {
      const leaves = leavesByCourse.get(wf.objectiveId);
      if (!leaves) continue;
      const { aws, records, sessions } = progressRows(
        wf,
        leaves,
        wf.objectiveRecordId ? (recordById.get(wf.objectiveRecordId) ?? null) : null,
        now,
      );
      awRows.push(...aws);
      arRows.push(...records);
      sessionRows.push(...sessions);
    }

    await insertChunked(activityRows, 500, (chunk) => tx.insert(s.activities).values(chunk));
    await insertChunked(partRows, 1000, (chunk) => tx.insert(s.activityParts).values(chunk));
    await insertChunked(awRows, 1000, (chunk) => tx.insert(s.activityWorkflows).values(chunk));
    await insertChunked(arRows, 1000, (chunk) => tx.insert(s.activityRecords).values(chunk));
    // Sessions point at their activity workflow and back (last_proctoring_session_id): insert, then link.
    await insertChunked(sessionRows, 1000, (chunk) => tx.insert(s.proctoringSessions).values(chunk));
    if (sessionRows.length) {
      await tx.execute(sql`
        update ${s.activityWorkflows} aw set last_proctoring_session_id = ps.id
        from ${s.proctoringSessions} ps
        where ps.activity_workflow_id = aw.id
          and ps.id in (${sql.join(
            sessionRows.map((r) => sql`${r.id}::uuid`),
            sql`, `,
          )})
      `);
    }

    // childrenCount = children of each course's root part.
    await tx.execute(sql`
      update ${s.objectives} o
      set children_count = (
        select count(*)::int from ${s.activityParts} c
        join ${s.activityParts} r on r.id = c.parent_part_id
        where r.objective_id = o.id and r.parent_part_id is null
      )
      where o.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
    `);
  });
}
