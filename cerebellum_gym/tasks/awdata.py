"""AndroidWorld's parameter pools and name generators, so mirrored tasks draw what AndroidWorld draws.

The lists are data read from AndroidWorld's source at the pinned commit (google-research/
android_world d9c569f, Apache-2.0); the module each comes from is named beside it, and
``tests/tasks/test_androidworld_conformance.py`` checks every list against that source. The
generators follow AndroidWorld's documented behaviour with a numpy ``Generator`` in place of
Python's global ``random``, so a seed fixes an episode here (same pools and shapes, not the same
draws as AndroidWorld for a given seed).

Example:
    >>> import numpy as np
    >>> from cerebellum_gym.tasks import awdata
    >>> rng = np.random.default_rng(0)
    >>> awdata.random_phone_number(rng)[:2], len(awdata.random_phone_number(rng))
    ('+1', 12)
    >>> awdata.modified_file_name(np.random.default_rng(3), "memo.m4a").endswith(".m4a")
    True
"""

from __future__ import annotations

import string
from datetime import date, timedelta
from typing import Final

import numpy as np

#: AndroidWorld's "today" on the device (``device_constants.DT``), in UTC.
DEVICE_TODAY: Final = date(2023, 10, 15)
_ALNUM: Final = string.ascii_letters + string.digits
_FIXED_TAGS: Final = ("backup", "copy", "final", "edited")


def pick(rng: np.random.Generator, items: tuple[str, ...] | list[str]) -> str:
    """One item, uniformly (``random.choice``)."""
    return str(items[int(rng.integers(len(items)))])


def random_string(rng: np.random.Generator, length: int) -> str:
    """Letters and digits (``user_data_generation.generate_random_string``)."""
    return "".join(_ALNUM[int(i)] for i in rng.integers(0, len(_ALNUM), size=length))


def random_date_str(rng: np.random.Generator) -> str:
    """A day of 2023 before the device's today, as ``YYYY_MM_DD`` (``_generate_random_date_str``)."""
    start = date(2023, 1, 1)
    day = start + timedelta(days=int(rng.integers(0, (date(2023, 10, 14) - start).days + 1)))
    return day.strftime("%Y_%m_%d")


def modified_file_name(rng: np.random.Generator, base: str) -> str:
    """``base`` with a date, a 4-character code or a tag as prefix or suffix, before the extension
    (``user_data_generation.generate_modified_file_name``)."""
    kind = int(rng.integers(3))
    as_prefix = bool(rng.integers(2))
    stem, dot, ext = base.rpartition(".") if "." in base.lstrip(".") else (base, "", "")
    ext = dot + ext
    if kind == 0:
        mod = random_date_str(rng)
    elif kind == 1:
        mod = random_string(rng, 4)
    else:
        mod = pick(rng, _FIXED_TAGS)
    return f"{mod}_{stem}{ext}" if as_prefix else f"{stem}_{mod}{ext}"


def random_file_name(rng: np.random.Generator) -> str:
    """``adjective_noun``, modified, without an extension (``generate_random_file_name``)."""
    return modified_file_name(rng, f"{pick(rng, ADJECTIVES)}_{pick(rng, NOUNS)}")


def random_note_name(rng: np.random.Generator) -> str:
    """A note's file name: a random file name ending in ``.md`` or ``.txt`` (markor's ``_generate_random_note``)."""
    return random_file_name(rng) + pick(rng, (".md", ".txt"))


def random_person_name(rng: np.random.Generator, excluding: str = "") -> str:
    """``Given Family`` (``generate_random_name``), avoiding every word of ``excluding``.

    AndroidWorld's own exclusion passes its arguments to ``re.split`` the wrong way round and so
    excludes nothing; here it works.
    """
    avoid = set(excluding.replace(",", " ").split())
    family = pick(rng, [n for n in FAMILY_NAMES if n not in avoid])
    given = pick(rng, [n for n in GIVEN_NAMES if n not in avoid])
    return f"{given} {family}"


def random_phone_number(rng: np.random.Generator) -> str:
    """``+1`` and ten digits (``generate_random_number``)."""
    return "+1" + "".join(str(int(d)) for d in rng.integers(0, 10, size=10))


def noise_file_names(rng: np.random.Generator, base: str, variants: tuple[str, ...], n: int = 20) -> list[str]:
    """Decoy file names as ``generate_noise_files`` draws them: 1 to ``n`` distinct names, each a
    modified variant (85%) or a modified ``base`` (15%), given a variant's extension when it has none."""
    count = int(rng.integers(1, n + 1))
    names: list[str] = []
    while len(names) < count:
        name = modified_file_name(rng, pick(rng, variants) if rng.random() <= 0.85 else base)
        if "." not in name:
            variant = pick(rng, variants)
            name += variant[variant.rfind(".") :] if "." in variant else ""
        if name not in names:
            names.append(name)
    return names


# --- the lists ---------------------------------------------------------------------------------

#: Given names (``user_data_generation.COMMON_GIVEN_NAMES``).
GIVEN_NAMES: Final[tuple[str, ...]] = (
    "Abdullah",
    "Adam",
    "Ahmed",
    "Alejandro",
    "Ali",
    "Alice",
    "Amelia",
    "Amina",
    "Amir",
    "Ana",
    "Anna",
    "Aria",
    "Arthur",
    "Ava",
    "Camila",
    "Carlos",
    "Charlie",
    "Charlotte",
    "Daniel",
    "David",
    "Elias",
    "Ella",
    "Ema",
    "Emil",
    "Emilia",
    "Emily",
    "Emma",
    "Eva",
    "Fatima",
    "Freya",
    "Gabriel",
    "George",
    "Grace",
    "Hana",
    "Hannah",
    "Henry",
    "Hugo",
    "Ian",
    "Ibrahim",
    "Isabella",
    "Isla",
    "Ivan",
    "Jack",
    "James",
    "Jose",
    "Juan",
    "Laura",
    "Leo",
    "Leon",
    "Leonardo",
    "Liam",
    "Lily",
    "Lina",
    "Louis",
    "Luca",
    "Lucas",
    "Luis",
    "Luka",
    "Maria",
    "Mariam",
    "Mark",
    "Martin",
    "Martina",
    "Maryam",
    "Mateo",
    "Matteo",
    "Maya",
    "Mia",
    "Miguel",
    "Mila",
    "Mohammad",
    "Muhammad",
    "Nikola",
    "Noa",
    "Noah",
    "Nora",
    "Oliver",
    "Olivia",
    "Omar",
    "Oscar",
    "Petar",
    "Samuel",
    "Santiago",
    "Sara",
    "Sarah",
    "Sofia",
    "Sofija",
    "Sophia",
    "Sophie",
    "Theo",
    "Theodore",
    "Thiago",
    "Thomas",
    "Valentina",
    "Victoria",
    "William",
    "Willow",
)

#: Family names (``user_data_generation._COMMON_FAMILY_NAMES``).
FAMILY_NAMES: Final[tuple[str, ...]] = (
    "Ahmed",
    "Ali",
    "Alves",
    "Chen",
    "Fernandez",
    "Ferreira",
    "Garcia",
    "Gonzalez",
    "Hernandez",
    "Ibrahim",
    "Li",
    "Liu",
    "Lopez",
    "Martin",
    "Mohamed",
    "Mohammed",
    "Muller",
    "Pereira",
    "Wang",
    "Zhang",
    "da Silva",
    "dos Santos",
)

#: The sentence pool of notes and text messages (``user_data_generation.RANDOM_SENTENCES``).
SENTENCES: Final[tuple[str, ...]] = (
    "Don't forget to water the plants while I'm away.",
    "Your dentist appointment is scheduled for 2 PM on Thursday.",
    "Lunch meeting with Sarah at 1 PM Cafe L'amour.",
    "The dog's vet appointment is next Monday at 11 AM.",
    "Parents' evening at school this Wednesday.",
    "Monthly budget meeting pushed to Friday.",
    "Pick up groceries: Milk and Bread and Apples.",
    "Gym membership renewal due on the 20th.",
    "The library book is due back on the 15th.",
    "Reminder to call Grandma for her birthday.",
    "Weekend plans: Hiking trip to Blue Mountain.",
    "Book club meets next Tuesday to discuss '1984'.",
    "Dry cleaning is ready for pick-up.",
    "Wedding anniversary on the 30th. Make reservations!",
    "Yoga class every Tuesday and Thursday at 6 PM.",
    "Hello, World!",
    "To be or not to be.",
    "A quick brown fox.",
    "Lorem Ipsum is simply dummy text.",
    "The night is dark and full of terrors.",
    "May the Force be with you.",
    "Elementary, my dear Watson.",
    "It's a bird, it's a plane.",
    "Winter is coming.",
    "The cake is a lie.",
    "Inconceivable!",
    "A journey of a thousand miles begins with a single step.",
    "I think, therefore I am.",
    "The early bird catches the worm.",
    "Ignorance is bliss.",
    "Actions speak louder than words.",
    "Beauty is in the eye of the beholder.",
    "Better late than never.",
    "Cleanliness is next to godliness.",
    "Don't cry over spilled milk.",
    "The pen is mightier than the sword.",
    "When in Rome, do as the Romans do.",
    "The squeaky wheel gets the grease.",
    "Where there is smoke, there is fire.",
    "You can't make an omelette without breaking a few eggs.",
)

#: File-name adjectives (``user_data_generation._ADJECTIVES``).
ADJECTIVES: Final[tuple[str, ...]] = (
    "quick",
    "happy",
    "silly",
    "brave",
    "kind",
    "clever",
    "gentle",
    "proud",
    "friendly",
    "funny",
    "curious",
    "smart",
    "bold",
    "calm",
    "fierce",
    "wise",
    "strong",
    "bright",
    "eager",
    "fancy",
    "helpful",
    "jolly",
    "lively",
    "neat",
    "polite",
    "sharp",
    "shy",
    "super",
    "tough",
    "witty",
    "active",
    "alert",
    "best",
    "busy",
    "cool",
    "fair",
    "fancy",
    "fine",
    "glad",
    "good",
    "great",
    "hot",
    "nice",
    "pretty",
    "proud",
    "ready",
    "real",
    "safe",
    "sure",
    "warm",
)

#: File-name nouns (``user_data_generation._NOUNS``).
NOUNS: Final[tuple[str, ...]] = (
    "apple",
    "banana",
    "cat",
    "dog",
    "elephant",
    "fish",
    "guitar",
    "house",
    "island",
    "jacket",
    "king",
    "lion",
    "monkey",
    "nest",
    "ocean",
    "penguin",
    "queen",
    "rabbit",
    "snake",
    "tree",
    "umbrella",
    "violin",
    "watch",
    "xylophone",
    "yacht",
    "zebra",
    "ant",
    "bear",
    "cow",
    "deer",
    "eagle",
    "frog",
    "goat",
    "horse",
    "igloo",
    "jelly",
    "koala",
    "lamp",
    "mouse",
    "nurse",
    "owl",
    "pig",
    "quilt",
    "rose",
    "sun",
    "tiger",
    "unicorn",
    "vase",
    "wolf",
    "fox",
    "zebra",
)

#: Shared-storage folders and typical file names in each (``user_data_generation.EMULATOR_DIRECTORIES``).
EMULATOR_DIRECTORIES: Final[dict[str, tuple[str, ...]]] = {
    "Alarms": (
        "morning_alarm.mp3",
        "wake_up.mp3",
        "early_alarm.mp3",
        "daily_reminder.mp3",
        "weekend_alarm.mp3",
        "night_alarm.mp3",
        "early_bird.mp3",
        "fitness_reminder.mp3",
        "meditation_time.mp3",
    ),
    "Audiobooks": (
        "sci_fi_book.mp3",
        "history_lecture.mp3",
        "novel_chapter.mp3",
        "biography_audio.mp3",
        "mystery_novel.mp3",
        "self_help_guide.mp3",
        "adventure_story.mp3",
        "language_lessons.mp3",
        "childrens_fable.mp3",
    ),
    "DCIM": (
        "holiday_photos.jpg",
        "birthday_party.jpg",
        "wedding_event.jpg",
        "nature_pics.jpg",
        "road_trip.jpg",
        "graduation_ceremony.jpg",
        "first_day_school.jpg",
        "mountain_hike.jpg",
        "winter_holiday.jpg",
    ),
    "Documents": (
        "resume.pdf",
        "cover_letter.pdf",
        "annual_report.pdf",
        "meeting_notes.pdf",
        "project_plan.pdf",
        "expense_report.pdf",
        "invoice_details.pdf",
        "client_brief.pdf",
        "contract_agreement.pdf",
    ),
    "Download": (
        "setup_exe.exe",
        "sample_pdf.pdf",
        "test_download.zip",
        "image_file.png",
        "movie_trailer.mp4",
        "software_patch.exe",
        "ebook_reader.apk",
        "music_album.zip",
    ),
    "Movies": (
        "action_film.mp4",
        "romantic_comedy.mp4",
        "documentary.mp4",
        "horror_movie.mp4",
        "sci_fi_thriller.mp4",
        "animation_kids.mp4",
        "drama_series.mp4",
        "mystery_feature.mp4",
    ),
    "Music": (
        "rock_album.mp3",
        "jazz_song.mp3",
        "classical_music.mp3",
        "pop_hit.mp3",
        "electronic_dance.mp3",
        "folk_tunes.mp3",
        "hip_hop_beats.mp3",
        "opera_recordings.mp3",
    ),
    "Notifications": (
        "new_message.mp3",
        "app_alert.mp3",
        "system_notification.mp3",
        "calendar_event.mp3",
        "email_received.mp3",
        "weather_update.mp3",
        "traffic_info.mp3",
        "sports_score.mp3",
    ),
    "Pictures": (
        "selfie.jpg",
        "sunset.jpg",
        "beach_day.jpg",
        "city_night.jpg",
        "family_gathering.jpg",
        "pets_playing.jpg",
        "garden_blooms.jpg",
        "food_snapshot.jpg",
    ),
    "Podcasts": (
        "news_podcast.mp3",
        "tech_talk.mp3",
        "comedy_show.mp3",
        "health_series.mp3",
        "educational_content.mp3",
        "music_reviews.mp3",
        "political_discussion.mp3",
        "travel_tips.mp3",
    ),
    "Recordings": (
        "interview_recording.mp3",
        "lecture_capture.mp3",
        "memoir_audio.mp3",
        "meeting_audio.mp3",
        "brainstorm_session.mp3",
        "book_reading.mp3",
        "therapy_session.mp3",
        "personal_notes.mp3",
    ),
    "Ringtones": (
        "default_ringtone.mp3",
        "custom_tone.mp3",
        "vintage_bell.mp3",
        "modern_beep.mp3",
        "jazzy_ring.mp3",
        "funky_tune.mp3",
        "classic_music.mp3",
        "nature_sounds.mp3",
    ),
}

#: Street addresses (``user_data_generation.generate_random_address``).
ADDRESSES: Final[tuple[str, ...]] = (
    "123 Main St Girdwood, AK, 99587",
    "6 Elm St, Birmingham, AL, 35217",
    "789 E Oak St, Phoenix AZ 85006",
    "1011 S Maple St, Little Rock, AR, 72204",
    "1415 W Cedar Ave Denver, CO, 80223",
    "968 Spruce St, Hartford, CT, 06103",
    "1819 Birch Ct, Dover, DE, 19901",
    "2021 Poplar St, Atlanta, GA, 30340",
)

#: Markor decoy note names (``markor._NOTE_TITLES``).
NOTE_TITLES: Final[tuple[str, ...]] = (
    "grocery_list_weekly.md",
    "meeting_notes_project_team.md",
    "personal_goals_2024.md",
    "reading_list_2024.md",
    "research_paper_summary.md",
    "summer_vacation_plans.md",
    "budget_home_renovation.md",
    "april_workout_routine.md",
    "birthday_gift_ideas_mom.md",
    "recipe_homemade_pizza.md",
    "weekend_todo_list.md",
    "insurance_plan_comparison.md",
    "art_project_sketches.md",
    "python_learning_goals.md",
    "trip_reflections_recent.md",
    "startup_ideas_launch.md",
    "client_meetings_schedule.md",
    "favorite_book_quotes.md",
    "garden_layout_plan.md",
    "upcoming_presentation_outline.md",
)

#: Markor folders of the move task (``MarkorMoveNote.generate_random_params``).
MARKOR_SUBFOLDERS: Final[tuple[str, ...]] = (
    "BookNotes",
    "CodeSnippets",
    "DailyNotes",
    "FitnessPlans",
    "MeetingMinutes",
    "PersonalJournal",
    "RecipeCollections",
    "StudyGuides",
    "TravelItineraries",
    "WorkProjects",
)

#: Expense names by category (``expense._EXPENSE_NAMES``).
EXPENSE_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "Others": (
        "Emergency Repairs",
        "Pet Supplies",
        "Pet Care",
        "Household Items",
        "Stationery",
        "Unexpected Expenses",
        "Miscellaneous Gifts",
        "Subscriptions",
        "Membership Fees",
        "Legal Fees",
    ),
    "Income": (
        "Salary",
        "Freelance Payment",
        "Bonus",
        "Dividends",
        "Interest Income",
        "Rental Income",
        "Capital Gains",
        "Reimbursements",
        "Side Business",
        "Consulting Fees",
    ),
    "Food": (
        "Restaurant Meal",
        "Groceries",
        "Coffee",
        "Fast Food",
        "Fine Dining",
        "Bakery Items",
        "Snacks",
        "Food Delivery",
        "Specialty Foods",
        "Dining Out",
    ),
    "Housing": (
        "Rent Payment",
        "Mortgage",
        "Home Repairs",
        "Utilities",
        "Property Taxes",
        "Home Insurance",
        "Furnishing",
        "Cleaning Services",
        "Landscaping",
        "Pest Control",
    ),
    "Social": (
        "Dinner Party",
        "Gift for Friend",
        "Club Membership",
        "Wedding Gift",
        "Charity Donations",
        "Birthday Present",
        "Social Club Dues",
        "Event Tickets",
        "Night Out",
        "Party Supplies",
    ),
    "Entertainment": (
        "Concert Tickets",
        "Movie Night",
        "Theater Show",
        "Streaming Services",
        "Video Games",
        "Books",
        "Magazines",
        "Hobbies",
        "Museum Tickets",
        "Amusement Park",
    ),
    "Transportation": (
        "Taxi Fare",
        "Public Transit Pass",
        "Gas",
        "Parking Fees",
        "Car Maintenance",
        "Bike Repairs",
        "Car Insurance",
        "Public Transit",
        "Flight Tickets",
        "Ride-Sharing",
    ),
    "Clothes": (
        "New Jacket",
        "Shirt Purchase",
        "Shoes",
        "Dress",
        "Jeans",
        "Accessories",
        "Sportswear",
        "Undergarments",
        "Tailoring Services",
        "Laundry",
    ),
    "Health Care": (
        "Doctor Visits",
        "Medications",
        "Health Insurance",
        "Dental Care",
        "Eyecare",
        "Wellness Products",
        "Gym Membership",
        "Therapy Sessions",
        "Medical Tests",
    ),
    "Education": (
        "Tuition Fees",
        "School Supplies",
        "Textbooks",
        "Online Courses",
        "Seminars",
        "Workshops",
        "Educational Software",
        "Library Fees",
        "ProDev",
        "Tutoring Services",
    ),
    "Donation": (
        "Charity",
        "Fundraising Events",
        "Sponsorships",
        "Non-Profit Support",
        "Crowdfunding",
        "Religious",
        "Political",
        "Educational",
        "Medical Research",
        "Environmental",
    ),
}

#: Expense notes (``expense._NOTES``).
EXPENSE_NOTES: Final[tuple[str, ...]] = (
    "Paid by card",
    "Urgent",
    "Monthly recurring",
    "Want to have",
    "A need",
    "Remember to transfer funds",
    "I may repeat this",
)

#: Calendar title prefixes (``events_generator.TITLES_PREFIXES``).
EVENT_TITLES_PREFIXES: Final[tuple[str, ...]] = (
    "Meeting with",
    "Call with",
    "Workshop on",
    "Appointment for",
    "Catch up on",
    "Review session for",
)

#: Who a calendar event is with (``events_generator.NAMES``).
EVENT_NAMES: Final[tuple[str, ...]] = ("Alice", "Bob", "the Team", "HR", "Dr. Smith", "Marketing")

#: What a calendar event is on (``events_generator.SUBJECTS``).
EVENT_SUBJECTS: Final[tuple[str, ...]] = ("Project X", "Annual Report", "Budget Planning", "Campaign")

#: Description verbs (``events_generator.ACTIONS``).
EVENT_ACTIONS: Final[tuple[str, ...]] = (
    "discuss",
    "finalize",
    "plan",
    "celebrate",
    "prepare for",
    "review",
    "explore",
    "understand",
    "organize",
    "strategize about",
)

#: Description subjects (``events_generator.SUBJECTS_DESCRIPTIONS``).
EVENT_SUBJECTS_DESCRIPTIONS: Final[tuple[str, ...]] = (
    "upcoming project milestones",
    "marketing strategies",
    "annual budget",
    "product launch",
    "team roles",
    "client feedback",
    "contract details",
    "software updates",
    "business objectives",
)

#: Optional description endings (``events_generator.ADDITIONAL_NOTES``).
EVENT_ADDITIONAL_NOTES: Final[tuple[str, ...]] = (
    "Please bring relevant documents.",
    "Remember to confirm attendance.",
    "Let's be punctual.",
    "Looking forward to productive discussions.",
    "Snacks will be provided.",
)

#: Recording base names (``AudioRecorderRecordAudioWithFileName.generate_random_params``).
RECORDING_NAMES: Final[tuple[str, ...]] = (
    "interview",
    "meeting",
    "lecture",
    "session",
    "note",
    "conference",
    "webinar",
    "workshop",
    "seminar",
    "briefing",
    "discussion",
    "talk",
    "presentation",
    "training",
    "guidance",
    "memo",
    "narration",
    "storytelling",
    "journal",
    "diary",
    "debate",
    "symposium",
    "roundtable",
    "consultation",
    "review",
)

#: ``time`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_TIMES: Final[tuple[str, ...]] = (
    "11:00am",
    "1:30pm",
    "9:45am",
    "21:45",
    "10:00am",
    "3:15pm",
    "12pm",
    "6:30am",
    "8:00pm",
    "12am",
    "5:20pm",
    "23:59",
    "7:45am",
    "4pm",
    "10:30am",
    "16:15",
    "2:45am",
    "9:15pm",
    "11:30am",
    "20:00",
)

#: ``date`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_DATES: Final[tuple[str, ...]] = (
    "October 15 2023",
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
    "October 21 2023",
    "October 22 2023",
    "October 23 2023",
    "October 24 2023",
    "October 25 2023",
    "October 26 2023",
    "October 27 2023",
    "October 28 2023",
    "October 29 2023",
)

#: ``duration`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_DURATIONS: Final[tuple[str, ...]] = (
    "30 m",
    "60 minutes",
    "45min",
    "1 h",
    "2 hours",
    "15 minutes",
    "1.5 hours",
    "90 min",
    "20 min",
    "3 h",
    "25 minutes",
    "10 min",
    "50 min",
    "2.5 hours",
    "75 minutes",
    "5 minutes",
)

#: ``title`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_TITLES: Final[tuple[str, ...]] = (
    "Data Dive",
    "Bug Bash",
    "Dan's Birthday Party",
    "Trivia Night",
    "Product demo",
    "Team lunch",
    "Coffee with CEO",
    "Quarterly review",
    "Scrum meeting",
    "Doctor's appointment",
    "Birthday party",
    "Coding challenge",
    "Board meeting",
    "Marketing strategy workshop",
    "Movie night",
    "Dinner with friends",
    "Concert",
    "Game night",
    "Date night",
    "Weekend trip",
    "Family reunion",
    "Volunteer cleanup",
    "Sports game",
)

#: ``title`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_TITLES: Final[tuple[str, ...]] = (
    "Marketing Brainstorm",
    "Lunch with Client",
    "Team Offsite",
    "Product demo",
    "Team lunch",
    "Coffee with CEO",
    "Quarterly review",
    "Scrum meeting",
    "Doctor's appointment",
    "Birthday party",
    "Coding challenge",
    "Board meeting",
    "Marketing strategy workshop",
    "Movie night",
    "Dinner with friends",
    "Concert",
    "Game night",
    "Date night",
    "Weekend trip",
    "Family reunion",
    "Volunteer cleanup",
    "Sports game",
)

#: ``location`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_LOCATIONS: Final[tuple[str, ...]] = (
    "Conference Room A",
    "McDonald's",
    "100 Main St Chicago",
    "City Park",
    "The Coffee Bean",
    "Sarah's apartment",
    "Conference Room A",
    "Zoom meeting",
    "Riverside Restaurant",
    "Local library",
    "Bowling alley",
    "Community center",
    "Online",
    "The beach",
    "John's backyard",
    "State Park",
    "Art Museum",
    "Hiking trail",
    "Downtown",
    "Mall",
    "The gym",
    "School auditorium",
    "Virtual",
)

#: ``date`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_DATES: Final[tuple[str, ...]] = (
    "October 15 2023",
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
    "October 21 2023",
    "October 22 2023",
    "October 23 2023",
    "October 24 2023",
    "October 25 2023",
    "October 26 2023",
    "October 27 2023",
    "October 28 2023",
    "October 29 2023",
)

#: ``time`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_TIMES: Final[tuple[str, ...]] = (
    "11:00",
    "1:30pm",
    "9:45am",
    "11:00am",
    "1:30pm",
    "9:45am",
    "21:45",
    "10:00am",
    "3:15pm",
    "12pm",
    "6:30am",
    "8:00pm",
    "12am",
    "5:20pm",
    "23:59",
    "7:45am",
    "4pm",
    "10:30am",
    "16:15",
    "2:45am",
    "9:15pm",
    "11:30am",
    "20:00",
)

# --- Broccoli's recipes (``recipe.py``) ---------------------------------------------------------

#: The recipes' titles and directions (``recipe._RECIPES``; every other field is drawn).
RECIPES: Final[tuple[tuple[str, str], ...]] = (
    (
        "Spicy Tuna Wraps",
        "Mix canned tuna with mayo and sriracha. Spread on tortillas, add lettuce and cucumber slices, roll up.",
    ),
    (
        "Avocado Toast with Egg",
        "Toast bread, top with mashed avocado, a fried egg, salt, pepper, and chili flakes.",
    ),
    (
        "Greek Salad Pita Pockets",
        "Fill pita pockets with lettuce, cucumber, tomato, feta, olives, and Greek dressing.",
    ),
    (
        "Quick Fried Rice",
        "Sauté cooked rice with vegetables, add soy sauce and scrambled eggs. Toss until hot.",
    ),
    (
        "Pesto Pasta with Peas",
        "Cook pasta, stir in pesto sauce and cooked peas. Add Parmesan cheese before serving.",
    ),
    (
        "BBQ Chicken Quesadillas",
        "Mix shredded cooked chicken with BBQ sauce. Place on tortillas with cheese, fold and cook until crispy.",
    ),
    (
        "Tomato Basil Bruschetta",
        "Top sliced baguette with a mix of chopped tomatoes, basil, garlic, olive oil, salt, and pepper.",
    ),
    (
        "Lemon Garlic Tilapia",
        "Sauté tilapia in butter, add lemon juice and garlic. Serve with steamed vegetables.",
    ),
    (
        "Turkey and Cheese Panini",
        "Layer turkey and cheese on bread, grill in a panini press until golden.",
    ),
    (
        "Veggie and Hummus Sandwich",
        "Spread hummus on bread, add cucumber, bell pepper, carrot, and lettuce.",
    ),
    (
        "Mango Chicken Curry",
        "Cook chicken pieces in a pan, add onions, garlic, and ginger. Stir in curry powder, coconut milk, "
        "and mango pieces. Simmer until chicken is cooked.",
    ),
    (
        "Beef Stir Fry",
        "Stir-fry beef slices with broccoli, bell peppers, and onions in soy sauce and garlic. Serve over rice or noodles.",
    ),
    (
        "Shrimp Avocado Salad",
        "Mix cooked shrimp with avocado, tomatoes, cucumber, and onion. Dress with lime juice, olive oil, salt, and pepper.",
    ),
    (
        "Spinach and Feta Stuffed Chicken",
        "Stuff chicken breasts with a mixture of spinach, feta, garlic, and herbs. Bake until chicken is cooked through.",
    ),
    (
        "Zucchini Noodles with Pesto",
        "Spiralize zucchini into noodles, sauté with garlic, then mix with pesto sauce. Top with grated Parmesan cheese.",
    ),
    (
        'Cauliflower Fried "Rice"',
        "Pulse cauliflower in a food processor until it resembles rice. Sauté with vegetables, soy sauce, and add scrambled eggs.",
    ),
    (
        "Sweet Potato and Black Bean Tacos",
        "Roast sweet potato cubes, mix with black beans, and use as filling for tacos. Top with avocado and cilantro lime sauce.",
    ),
    (
        "Salmon with Dill Sauce",
        "Bake salmon fillets and serve with a sauce made from Greek yogurt, dill, lemon juice, and garlic.",
    ),
    (
        "Quinoa Salad with Vegetables",
        "Mix cooked quinoa with diced vegetables, feta cheese, and a lemon olive oil dressing.",
    ),
    (
        "Chickpea Vegetable Soup",
        "Sauté onions, carrots, and celery, add broth, canned tomatoes, and chickpeas. Simmer with spinach and seasonings.",
    ),
    (
        "Chicken Caesar Salad Wrap",
        "Toss chopped romaine lettuce with Caesar dressing, grilled chicken strips, and Parmesan cheese. Wrap in a large tortilla.",
    ),
    (
        "Vegetarian Chili",
        "Cook onions, garlic, bell peppers, and carrots. Add canned tomatoes, kidney beans, black beans, "
        "corn, and chili seasoning. Simmer until vegetables are tender.",
    ),
    (
        "Pan-Seared Salmon with Quinoa",
        "Pan-sear salmon fillets until crispy. Serve over cooked quinoa with a side of steamed asparagus.",
    ),
    (
        "Caprese Salad Skewers",
        "Thread cherry tomatoes, basil leaves, and mozzarella balls onto skewers. Drizzle with balsamic glaze.",
    ),
    (
        "Chicken Alfredo Pasta",
        "Cook fettuccine pasta, toss with Alfredo sauce and grilled chicken strips. Serve with a sprinkle of Parmesan cheese.",
    ),
    (
        "Stuffed Bell Peppers",
        "Mix cooked quinoa, black beans, corn, tomato sauce, and spices. Stuff into bell peppers and bake until tender.",
    ),
    (
        "Eggplant Parmesan",
        "Slice eggplant, bread, and fry. Layer in a baking dish with marinara sauce and mozzarella cheese. Bake until bubbly.",
    ),
    (
        "Thai Peanut Noodle Salad",
        "Toss cooked noodles with a Thai peanut sauce, sliced red bell peppers, cabbage, carrots, and cilantro.",
    ),
    (
        "Butternut Squash Soup",
        "Sauté onions and garlic, add cubed butternut squash and broth. Puree until smooth and season with nutmeg, salt, and pepper.",
    ),
    (
        "Baked Cod with Lemon and Dill",
        "Place cod fillets in a baking dish, season with lemon juice, dill, salt, and pepper. Bake until fish flakes easily.",
    ),
    (
        "Vegetable Stir Fry with Tofu",
        "Stir-fry tofu cubes until golden, add assorted vegetables and a stir-fry sauce. Serve over rice or noodles.",
    ),
    (
        "Classic Margherita Pizza",
        "Spread pizza dough with tomato sauce, top with slices of mozzarella cheese and fresh basil leaves. Bake until crust is golden.",
    ),
    (
        "Raspberry Almond Smoothie",
        "Blend together raspberries, almond milk, banana, and a scoop of almond butter until smooth.",
    ),
    (
        "Moroccan Chickpea Stew",
        "Sauté onions, garlic, carrots, and spices. Add canned chickpeas, diced tomatoes, and vegetable broth. Simmer until flavors meld.",
    ),
    (
        "Kale and Quinoa Salad",
        "Toss chopped kale, cooked quinoa, dried cranberries, sliced almonds, and feta cheese with a lemon vinaigrette.",
    ),
    (
        "Grilled Cheese with Tomato and Basil",
        "Butter bread slices, layer with cheese, tomato slices, and basil. Grill until bread is toasted and cheese is melted.",
    ),
    (
        "Sausage and Peppers Skillet",
        "Sauté sliced sausage, bell peppers, and onions until browned. Serve with mustard or on a hoagie roll.",
    ),
    (
        "Lentil Soup",
        "Cook onions, carrots, celery, garlic, and lentils in vegetable broth until lentils are tender. Season with thyme and bay leaves.",
    ),
    (
        "Garlic Butter Shrimp",
        "Sauté shrimp in butter and minced garlic until pink. Sprinkle with parsley and serve with lemon wedges.",
    ),
)
#: Descriptions (``descriptions`` in ``recipe._generate_random_recipe``).
RECIPE_DESCRIPTIONS: Final[tuple[str, ...]] = (
    "A quick and easy meal, perfect for busy weekdays.",
    "A delicious and healthy choice for any time of the day.",
    "An ideal recipe for experimenting with different flavors and ingredients.",
)
#: What is appended to the directions (``directions_additions`` there).
RECIPE_DIRECTIONS_ADDITIONS: Final[tuple[str, ...]] = (
    "Try adding a pinch of your favorite spices for extra flavor.",
    "Feel free to substitute with ingredients you have on hand.",
    "Garnish with fresh herbs for a more vibrant taste.",
)
#: The ingredients field's texts (``ingredient_descriptors`` there).
RECIPE_INGREDIENT_DESCRIPTORS: Final[tuple[str, ...]] = (
    "see directions",
    "as per recipe",
    "varies",
    "to preference",
    "quantities to taste",
    "as needed",
    "optional ingredients",
    "n/a",
    "various amounts",
    "adjustable",
    "to your liking",
    "flexible ingredients",
    "per individual taste",
    "as desired",
    "subject to change",
)
#: Servings (``recipe._SERVINGS_OPTIONS``).
RECIPE_SERVINGS: Final[tuple[str, ...]] = (
    "1 serving",
    "2 servings",
    "3-4 servings",
    "6 servings",
    "8 servings",
)
#: Preparation times (``recipe._PREP_TIME_OPTIONS``).
RECIPE_PREP_TIMES: Final[tuple[str, ...]] = (
    "10 mins",
    "20 mins",
    "30 mins",
    "45 mins",
    "1 hrs",
    "2 hrs",
    "3 hrs",
    "4 hrs",
)
#: Ingredients a constrained deletion names (``recipe._COMMON_INGREDIENTS``, with its repeats).
RECIPE_INGREDIENTS: Final[tuple[str, ...]] = (
    "tuna",
    "mayonnaise",
    "sriracha",
    "tortillas",
    "lettuce",
    "cucumber",
    "bread",
    "avocado",
    "eggs",
    "salt",
    "pepper",
    "chili flakes",
    "pita bread",
    "tomatoes",
    "feta cheese",
    "olives",
    "Greek dressing",
    "rice",
    "vegetables",
    "soy sauce",
    "pesto sauce",
    "peas",
    "Parmesan cheese",
    "chicken",
    "BBQ sauce",
    "cheese",
    "baguette",
    "basil",
    "garlic",
    "olive oil",
    "tilapia",
    "butter",
    "lemon juice",
    "turkey",
    "hummus",
    "bell peppers",
    "carrots",
    "mango",
    "curry powder",
    "coconut milk",
    "beef",
    "broccoli",
    "onions",
    "shrimp",
    "spinach",
    "herbs",
    "zucchini",
    "cauliflower",
    "sweet potato",
    "black beans",
    "cilantro",
    "Greek yogurt",
    "dill",
    "quinoa",
    "chickpeas",
    "romaine lettuce",
    "Caesar dressing",
    "Parmesan",
    "kidney beans",
    "corn",
    "chili seasoning",
    "asparagus",
    "mozzarella balls",
    "balsamic glaze",
    "fettuccine",
    "Alfredo sauce",
    "quinoa",
    "tomato sauce",
    "eggplant",
    "marinara sauce",
    "mozzarella cheese",
    "noodles",
    "Thai peanut sauce",
    "red bell peppers",
    "cabbage",
    "butternut squash",
    "nutmeg",
    "tofu",
    "pizza dough",
    "mozzarella cheese",
    "raspberries",
    "almond milk",
    "banana",
    "almond butter",
    "lentils",
    "thyme",
    "bay leaves",
    "parsley",
    "lemon wedges",
    "ghee",
    "cardamom",
    "fenugreek",
    "amchur (dry mango powder)",
    "rose water",
    "pomegranate molasses",
    "kaffir lime leaves",
    "galangal",
    "lemongrass",
    "furikake",
    "black garlic",
    "hemp seeds",
    "chia seeds",
    "açai berry",
    "maca powder",
    "spirulina",
    "cassava flour",
    "arrowroot powder",
    "seaweed",
    "escargot",
    "venison",
    "quail eggs",
    "duck fat",
    "morel mushrooms",
    "chanterelle mushrooms",
    "black truffle",
    "edible flowers",
    "salsify",
    "rutabaga",
    "celeriac",
    "finger limes",
)

# --- Tasks.org and OpenTracks (information retrieval) -----------------------------------------
# The parameter values below are those of ``information_retrieval/proto/tasks.textproto``. Its Tasks
# questions also draw the fifteen days of ``EVENTS_ON_DATE_DATES`` and the twenty times of
# ``EVENTS_ON_DATE_TIMES`` (the same lists as the calendar question's).

#: ``importance`` of ``TasksDueOnDate``.
TASKS_DUE_ON_DATE_IMPORTANCES: Final[tuple[str, ...]] = (
    "0",
    "0",
    "1",
    "1",
    "2",
    "2",
    "3",
    "3",
)

#: ``title`` of ``TasksDueOnDate`` and ``task_title`` of ``TasksHighPriorityTasks``.
TASKS_TITLES: Final[tuple[str, ...]] = (
    "Complete project proposal",
    "Review code changes",
    "Schedule team meeting",
    "Submit expense report",
    "Update website content",
    "Review quarterly goals",
    "Organize files and folders",
    "Draft marketing email",
    "Attend networking event",
    "Prepare presentation for meeting",
    "Call client for follow-up",
    "Research market trends",
    "Follow up on support tickets",
    "Prepare agenda for weekly meeting",
    "Book flights for conference",
    "Plan team outing",
    "Participate in brainstorming session",
    "Review performance metrics",
    "Attend training session",
    "Send report to manager",
)

#: ``notes`` of ``TasksDueOnDate`` and ``TasksHighPriorityTasks``.
TASKS_NOTES: Final[tuple[str, ...]] = (
    "Remember to complete this task.",
    "This task is important.",
    "Don't forget to follow up on this task.",
    "Double-check calculations.",
    "Confirm meeting location.",
    "Follow up with team members.",
    "Prepare presentation slides.",
    "Update project status.",
    "Check email for updates.",
    "Review feedback from client.",
    "Complete paperwork.",
    "Schedule follow-up meeting.",
)

#: ``due_date`` of ``TasksHighPriorityTasks`` and ``TasksDueNextWeek``.
TASKS_NEXT_WEEK_DATES: Final[tuple[str, ...]] = (
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
    "October 21 2023",
    "October 22 2023",
)

#: ``hide_until_date`` of ``TasksHighPriorityTasks``, ``completed_date`` of ``TasksCompletedTasksForDate``,
#: ``end_date`` of ``SportsTrackerTotalDistanceForCategoryOverInterval``.
TASKS_PAST_WEEK_DATES: Final[tuple[str, ...]] = (
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
)

#: ``time`` of ``TasksHighPriorityTasksDueOnDate``.
TASKS_HIGH_PRIORITY_TIMES: Final[tuple[str, ...]] = (
    "5:00pm",
    "12:00pm",
    "8:00am",
    "11:59pm",
    "2:00pm",
    "9:00am",
    "3:30pm",
    "10:00am",
    "4:45pm",
    "7:00pm",
)

#: ``title`` of ``TasksHighPriorityTasksDueOnDate``.
TASKS_HIGH_PRIORITY_TITLES: Final[tuple[str, ...]] = (
    "Project Milestone Review",
    "Submit Budget Report",
    "Proposal Draft Submission",
    "Team Sync-Up Meeting",
    "Client Feedback Session",
    "Code Review",
    "Marketing Campaign Launch",
    "Product Design Review",
    "Stakeholder Update Meeting",
    "Quarterly Sales Review",
)

#: ``title`` of ``TasksDueNextWeek``, ``TasksCompletedTasksForDate`` and ``TasksIncompleteTasksOnDate``: the twenty
#: above and five more.
TASKS_MORE_TITLES: Final[tuple[str, ...]] = (
    *TASKS_TITLES,
    "Dinner with friends",
    "Organize movie night",
    "Exercise session with coach",
    "Read book for book club",
    "Plan family reunion",
)

#: ``notes`` of ``TasksDueNextWeek``, ``TasksCompletedTasksForDate`` and ``TasksIncompleteTasksOnDate``.
TASKS_MORE_NOTES: Final[tuple[str, ...]] = (
    "This is high priority.",
    "This is urgent.",
    "Remember to review ahead of time.",
    "Double-check details.",
    "Schedule time on calendar.",
    "Follow up with others.",
    "Send emails to everyone.",
    "Send an update.",
    "Monitor email for updates on this.",
    "Check handwritten notes.",
    "Complete survey.",
    "Schedule follow-up tasks.",
)

#: ``date`` of ``TasksCompletedTasksForDate``.
TASKS_COMPLETED_FOR_DATES: Final[tuple[str, ...]] = (
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
)

#: ``date`` of ``SportsTrackerActivitiesOnDate``.
SPORTS_ON_DATE_DATES: Final[tuple[str, ...]] = (
    "October 12 2023",
    "October 13 2023",
    "October 11 2023",
    "October 10 2023",
    "October 9 2023",
    "October 8 2023",
    "October 7 2023",
    "October 6 2023",
    "October 5 2023",
    "October 4 2023",
    "October 3 2023",
    "October 2 2023",
    "October 1 2023",
    "September 30 2023",
    "September 29 2023",
    "September 28 2023",
    "September 27 2023",
    "September 26 2023",
    "September 25 2023",
    "September 24 2023",
)

#: ``category`` of every ``SportsTracker`` task.
SPORTS_CATEGORIES: Final[tuple[str, ...]] = (
    "running",
    "cycling",
    "swimming",
    "hiking",
    "mountain biking",
    "kayaking",
    "skiing",
    "snow boarding",
    "skate boarding",
    "climbing",
    "inline skating",
    "sailing",
)

#: ``duration`` of every ``SportsTracker`` task.
SPORTS_DURATIONS: Final[tuple[str, ...]] = (
    "15",
    "30",
    "45",
    "60",
    "90",
    "120",
    "40",
    "50",
    "75",
    "80",
    "20",
    "105",
    "135",
    "150",
    "165",
    "180",
    "210",
    "240",
    "270",
)

#: ``distance`` of every ``SportsTracker`` task.
SPORTS_DISTANCES: Final[tuple[str, ...]] = (
    "100",
    "300",
    "500",
    "800",
    "1000",
    "1200",
    "1500",
    "2000",
    "2500",
    "3000",
    "3500",
    "4000",
    "4500",
    "5000",
    "6000",
    "7000",
    "8000",
    "9000",
    "10000",
    "12000",
)

#: ``start_time`` of every ``SportsTracker`` task.
SPORTS_START_TIMES: Final[tuple[str, ...]] = (
    "8:00am",
    "10:30am",
    "5:00pm",
    "6:30am",
    "9:45am",
    "2:15pm",
    "7:00am",
    "11:00am",
    "4:00pm",
    "1:30pm",
    "5:45pm",
    "6:15am",
    "7:30am",
    "3:45pm",
    "10:15am",
    "2:45pm",
    "8:45am",
    "9:15am",
    "12:00pm",
    "5:30pm",
)

#: ``elevation`` of every ``SportsTracker`` task.
SPORTS_ELEVATIONS: Final[tuple[str, ...]] = (
    "50",
    "100",
    "250",
    "150",
    "75",
    "300",
    "200",
    "400",
    "350",
    "450",
    "550",
    "600",
    "800",
    "700",
    "900",
    "1000",
    "650",
    "1100",
    "1200",
    "850",
)

#: ``activity_name`` of every ``SportsTracker`` task.
SPORTS_NAMES: Final[tuple[str, ...]] = (
    "More tired than usual today",
    "Need more strength and conditioning",
    "Slow day",
    "Laps around the lake",
    "Trying and failing to keep up with John",
    "Quick outing",
    "Recovery day",
    "Active Rest Day",
    "Skill work",
    "Mindful Movement",
    "Outdoor Adventure",
    "Light Workout",
    "Intense day",
    "Quick Sweat",
    "Lunch Break Fitness",
)

#: ``activity_description`` of every ``SportsTracker`` task.
SPORTS_DESCRIPTIONS: Final[tuple[str, ...]] = (
    "Shared laughs and made memories with friends.",
    "Enjoyed a fun outing with good company.",
    "Had a blast with my favorite people.",
    "Created lasting memories that I'll cherish.",
    "Experienced something unforgettable.",
    "Captured moments that will bring a smile to my face.",
    "Wandered off the beaten path.",
    "Ventured into uncharted territory.",
    "Stepped outside my comfort zone.",
    "Pushed my boundaries and tried something different.",
    "Tested my limits and grew as a person.",
    "Pushed myself harder than I thought I could.",
    "Gained new knowledge and skills.",
    "Expanded my understanding of the world.",
    "Opened my mind to new perspectives.",
    "Enjoyed the warmth of the sunshine on my skin.",
    "Relaxed and recharged under the sun.",
    "Embraced the rain and got soaked.",
    "Found joy in the downpour.",
    "Faced the weather head-on and conquered it.",
    "Showed resilience in the face of adversity.",
)

#: ``start_date`` of ``SportsTrackerActivitiesCountForWeek``, ``SportsTrackerLongestDistanceActivity`` and
#: ``SportsTrackerTotalDurationForCategoryThisWeek``.
SPORTS_WEEK_DATES: Final[tuple[str, ...]] = (
    "October 9 2023",
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
)

#: ``date`` of ``SportsTrackerActivityDuration``.
SPORTS_DURATION_DATES: Final[tuple[str, ...]] = (
    "October 5 2023",
    "October 6 2023",
    "October 7 2023",
    "October 8 2023",
    "October 9 2023",
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
)

#: ``start_date`` of ``SportsTrackerTotalDistanceForCategoryOverInterval``.
SPORTS_INTERVAL_STARTS: Final[tuple[str, ...]] = (
    "October 1 2023",
    "October 2 2023",
    "October 3 2023",
    "October 4 2023",
    "October 5 2023",
    "October 6 2023",
    "October 7 2023",
    "October 8 2023",
    "October 9 2023",
)

#: The titles and notes of AndroidWorld's random tasks (``information_retrieval/task_app_utils._TASKS``).
TASK_NOISE: Final[dict[str, str]] = {
    "Grocery Shopping": "Don\t forget milk, eggs, and bread. Also need to pick up snacks for the kids.",
    "Finish Project Proposal": "Deadline is Friday. Need to finalize budget and timeline sections.",
    "Schedule Dentist Appointment": "Teeth cleaning overdue. Call Dr. Smith's office.",
    "Water Plants": "Check moisture level before watering. Fertilize succulents.",
    "Meal Prep for the Week": "Make a grocery list based on planned meals. Cook chicken and chop veggies on Sunday.",
    "Research Vacation Destinations": "Looking for beach destinations with family-friendly activities.",
    "Read 'The Martian'": "Started last week. Aim to finish by next weekend.",
    "Call Grandma": "Catch up on family news. Ask for her famous cookie recipe.",
    "Change Air Filter": "Last changed 3 months ago. Buy a new filter at the hardware store.",
    "Brainstorm Blog Post Ideas": "Need 5 new topics for the next month's content calendar.",
    "Renew Driver's License": "Expires next month. Check DMV website for requirements.",
    "Organize Closet": "Donate old clothes and shoes. Put winter clothes in storage.",
    "Submit Expense Report": "Deadline is Wednesday. Attach receipts for all purchases.",
    "Attend Team Meeting": "Agenda includes project updates and brainstorming new initiatives.",
    "Learn to Play Guitar": "Practice chords for 30 minutes every day. Find online tutorials.",
    "Reply to Emails": "Inbox is overflowing. Prioritize urgent messages and unsubscribe from unwanted lists.",
    "Clean Out Fridge": "Check expiration dates and discard old food. Wipe down shelves.",
    "Create Budget for Next Month": "Track income and expenses. Set savings goals.",
    "Back Up Computer Files": "Use external hard drive or cloud storage. Schedule regular backups.",
    "Take Dog to the Vet": "Annual checkup and vaccinations due.",
}

#: Names of AndroidWorld's random activities by category
#: (``information_retrieval/activity_app_utils._CATEGORY_TO_ACTIVITY_NAMES``).
ACTIVITY_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "biking": (
        "Scenic Cycling",
        "Bike Tour",
        "Trail Ride",
        "Bicycle Adventure",
        "Pedal Excursion",
        "Cycle Trip",
        "Off-road Cycling",
        "Mountain Biking",
        "Road Cycling",
        "Bike Expedition",
    ),
    "running": (
        "Trail Run",
        "Road Run",
        "Jogging",
        "Running Adventure",
        "Sprint Session",
        "Trail Jog",
        "Long Distance Run",
        "Morning Run",
        "Evening Run",
        "Running Challenge",
    ),
    "hiking": (
        "Trail Hike",
        "Mountain Trek",
        "Hiking Excursion",
        "Nature Walk",
        "Outdoor Hike",
        "Scenic Hike",
        "Mountain Hike",
        "Wilderness Hike",
        "Hill Walk",
        "Nature Hike",
    ),
    "swimming": (
        "Pool Swim",
        "Open Water Swim",
        "Swim Workout",
        "Swim Session",
        "Swimming Adventure",
        "Lap Swim",
        "Swim Training",
        "Water Exercise",
        "Swimming Excursion",
        "Swim Challenge",
    ),
    "walking": (
        "Neighborhood Walk",
        "Evening Stroll",
        "Morning Walk",
        "Urban Walk",
        "Nature Walk",
        "City Stroll",
        "Trail Walk",
        "Casual Walk",
        "Power Walk",
        "Brisk Walk",
    ),
    "skiing": (
        "Ski Trip",
        "Slope Session",
        "Alpine Skiing",
        "Downhill Skiing",
        "Cross-country Skiing",
        "Backcountry Skiing",
        "Powder Day",
        "Snow Adventure",
        "Winter Skiing",
        "Ski Expedition",
    ),
    "snowboarding": (
        "Snowboard Trip",
        "Freestyle Session",
        "Slope Riding",
        "Snowboard Adventure",
        "Snowboarding Excursion",
        "Powder Ride",
        "Mountain Snowboarding",
        "Backcountry Snowboarding",
        "Snowboard Challenge",
        "Snowboard Trek",
    ),
    "kayaking": (
        "Kayak Tour",
        "Paddling Adventure",
        "Kayak Excursion",
        "River Paddle",
        "Lake Kayaking",
        "Sea Kayaking",
        "Kayak Expedition",
        "Waterway Paddle",
        "Kayak Journey",
        "Paddle Outing",
    ),
    "rowing": (
        "Rowing Adventure",
        "Crew Session",
        "Lake Rowing",
        "River Rowing",
        "Rowing Excursion",
        "Rowing Challenge",
        "Rowing Workout",
        "Rowing Trek",
        "Rowing Expedition",
        "Sculling Session",
    ),
    "sailing": (
        "Sailing Trip",
        "Sailing Adventure",
        "Sailboat Ride",
        "Boat Tour",
        "Yacht Sailing",
        "Sailing Excursion",
        "Nautical Adventure",
        "Sailing Expedition",
        "Windward Sailing",
        "Sailboat Expedition",
    ),
    "skateboarding": (
        "Skateboard Session",
        "Urban Skate",
        "Skatepark Session",
        "Skateboard Adventure",
        "Street Skateboarding",
        "Skateboarding Excursion",
        "Skateboard Trek",
        "Skateboard Ride",
        "Skateboard Challenge",
        "Skateboard Exploration",
    ),
    "surfing": (
        "Surf Session",
        "Beach Surfing",
        "Wave Riding",
        "Surfing Adventure",
        "Surfing Excursion",
        "Surfboard Session",
        "Surfing Challenge",
        "Surf Trek",
        "Surfing Expedition",
        "Wave Exploration",
    ),
    "climbing": (
        "Rock Climbing",
        "Indoor Climbing",
        "Bouldering",
        "Climbing Adventure",
        "Climbing Excursion",
        "Crag Climbing",
        "Mountain Climbing",
        "Rock Climbing Challenge",
        "Climbing Session",
        "Climbing Expedition",
    ),
    "mountain biking": (
        "Mountain Bike Ride",
        "Trail Biking",
        "MTB Adventure",
        "Mountain Biking Excursion",
        "Off-road Biking",
        "Dirt Biking",
        "Mountain Bike Expedition",
        "Singletrack Session",
        "MTB Trek",
        "Trail Riding",
    ),
    "road biking": (
        "Road Bike Ride",
        "Cycling Adventure",
        "Road Cycling",
        "Long Distance Ride",
        "Bike Touring",
        "Road Bike Session",
        "Countryside Cycling",
        "City Cycling",
        "Bike Commute",
        "Road Riding",
    ),
    "trail running": (
        "Trail Run",
        "Off-road Running",
        "Trail Jog",
        "Trail Running Adventure",
        "Trail Run Session",
        "Trail Running Challenge",
        "Long Distance Trail Run",
        "Trail Run Expedition",
        "Trail Running Trek",
        "Off-road Run",
    ),
    "trail hiking": (
        "Trail Hike",
        "Hiking Adventure",
        "Nature Hike",
        "Mountain Trail Hike",
        "Scenic Hiking",
        "Trail Trek",
        "Trail Walking",
        "Off-road Hike",
        "Trail Hiking Excursion",
        "Hiking Expedition",
    ),
    "cycling": (
        "Scenic Cycling",
        "Bike Tour",
        "Trail Ride",
        "Bicycle Adventure",
        "Pedal Excursion",
        "Cycle Trip",
        "Off-road Cycling",
        "Mountain Biking",
        "Road Cycling",
        "Bike Expedition",
    ),
    "paddling": (
        "Boat Tour",
        "Paddle Adventure",
        "River Paddle",
        "Lake Paddling",
        "Sea Paddling",
        "Boating Expedition",
        "Waterway Paddle",
        "Paddle Journey",
        "Paddle Outing",
        "Canoeing Adventure",
    ),
}

_QUESTION_TITLES: Final[tuple[str, ...]] = (
    "Team Meeting",
    "1-on-1 with Manager",
    "Product demo",
    "Team lunch",
    "Coffee with CEO",
    "Quarterly review",
    "Scrum meeting",
    "Doctor's appointment",
    "Birthday party",
    "Coding challenge",
    "Board meeting",
    "Marketing strategy workshop",
    "Movie night",
    "Dinner with friends",
    "Concert",
    "Game night",
    "Date night",
    "Weekend trip",
    "Family reunion",
    "Volunteer cleanup",
    "Sports game",
)
_QUESTION_PERSONS: Final[tuple[str, ...]] = (
    "Amanda",
    "John",
    "David",
    "Lucas",
    "James",
    "Ava",
    "Isabella",
    "Mia",
    "Elijah",
    "Charlotte",
    "Emily",
    "Muhammad",
    "Sofia",
    "Mateo",
    "Aaliyah",
    "Isabella",
    "Daniel",
    "Mia",
)
#: The task parameters of Simple Calendar's other information-retrieval questions (``tasks.textproto``:
#: each task's ``task_params``, in its order, drawn one value each).
CALENDAR_QUESTION_PARAMS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "SimpleCalendarNextEvent": {
        "time": (
            "3:53pm",
            "21:45",
            "5pm",
            "17:30",
            "16:00",
            "18:30",
            "18:45",
            "7pm",
            "7:15pm",
            "21:45",
            "8pm",
            "8:10pm",
            "12:00am",
            "5:20pm",
            "23:59",
            "4:00pm",
            "16:15",
            "9:15pm",
            "20:40",
            "22:35",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
        "title": _QUESTION_TITLES,
    },
    "SimpleCalendarEventOnDateAtTime": {
        "date": LOCATION_OF_EVENT_DATES,
        "time": EVENTS_ON_DATE_TIMES,
        "duration": EVENTS_ON_DATE_DURATIONS,
        "title": _QUESTION_TITLES,
    },
    "SimpleCalendarAnyEventsOnDate": {
        "date": LOCATION_OF_EVENT_DATES,
        "title": _QUESTION_TITLES,
        "time": EVENTS_ON_DATE_TIMES,
    },
    "SimpleCalendarNextMeetingWithPerson": {
        "person": _QUESTION_PERSONS,
        "date": LOCATION_OF_EVENT_DATES,
        "time": LOCATION_OF_EVENT_TIMES,
    },
    "SimpleCalendarEventsInNextWeek": {
        "date": (
            "October 16 2023",
            "October 17 2023",
            "October 18 2023",
            "October 19 2023",
            "October 20 2023",
            "October 21 2023",
            "October 22 2023",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
        "title": (
            "Product demo",
            "Team lunch",
            "Coffee with CEO",
            "Quarterly review",
            "Scrum meeting",
            "Doctor's appointment",
            "Birthday party",
            "Coding challenge",
            "Board meeting",
            "Marketing strategy workshop",
            "Meet with {person}",
            "Movie night",
            "Dinner with friends",
            "Concert",
            "Game night",
            "Date night",
            "Weekend trip",
            "Family reunion",
            "Volunteer cleanup",
            "Sports game",
        ),
        "person": _QUESTION_PERSONS,
        "time": (
            "11:00am",
            "1:30pm",
            "9:45am",
            "21:45",
            "10:00am",
            "3:15pm",
            "12:00pm",
            "6:30am",
            "8pm",
            "12:00am",
            "5:20pm",
            "23:59",
            "7:45am",
            "4pm",
            "10:30am",
            "16:15",
            "2:45am",
            "9:15pm",
            "11:30am",
            "20:00",
        ),
    },
    "SimpleCalendarFirstEventAfterStartTime": {
        "date": LOCATION_OF_EVENT_DATES,
        "title": (
            "Sales Call",
            "Client Meeting",
            "Training Session",
            "Project Kickoff",
            "Team Brainstorming",
            "Dentist Appointment",
            "Haircut",
            "Grocery Shopping",
            "School Pickup",
            "Soccer Practice",
        ),
        "time": (
            "18:05",
            "11:00am",
            "1:30pm",
            "9:45am",
            "10:00am",
            "3:15pm",
            "12pm",
            "6:30am",
            "8:00pm",
            "5:20pm",
            "7:45am",
            "4pm",
            "10:30am",
            "16:15",
            "9:15pm",
            "11:30am",
            "20:00",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
    },
    "SimpleCalendarEventsInTimeRange": {
        "start_time": (
            "11:00am",
            "1:30pm",
            "9:45am",
            "10:00am",
            "3:15pm",
            "12pm",
            "6:30am",
            "5:20pm",
            "7:45am",
            "4pm",
            "10:30am",
            "4:15pm",
            "11:30am",
        ),
        "date": LOCATION_OF_EVENT_DATES,
        "title": (
            "Gym",
            "Dinner with Friends",
            "Happy Hour",
            "Evening Walk",
            "Yoga Class",
            "Run in the Park",
            "Cooking Class",
            "Movie Night",
            "Grocery Shopping",
            "Pick up Kids from School",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
    },
}

#: The people and action items the templated meeting notes draw from (``_ATTENDEES``, ``_ACTION_ITEMS``).
JOPLIN_ATTENDEES: Final = ("Emily", "John", "Sarah", "David", "Ava", "Michael", "Jessica", "Joshua")
JOPLIN_ACTION_ITEMS: Final = (
    "Follow up with client on proposal",
    "Draft project timeline",
    "Research market trends",
    "Schedule team check-in",
    "Create design mockups",
    "Update website content",
    "Review budget report",
    "Send out meeting follow-up email",
    "Conduct user testing",
    "Finalize presentation materials",
    "Order supplies for event",
    "Coordinate with external vendors",
    "Submit reimbursement requests",
)

#: The notes AndroidWorld's random Joplin notes are drawn from, by notebook (``information_retrieval/
#: joplin_app_utils._FOLDERS``: each notebook's ``{title, body}`` list, in its order). Some meeting notes
#: list ``n`` people or action items that AndroidWorld samples (at import); their bodies hold
#: ``{attendees:n}`` and ``{action_items:n}`` where the sampled lines go.
JOPLIN_NOISE: Final[dict[str, tuple[dict[str, str], ...]]] = {
    "Recipes": (
        {
            "title": "Zesty Quinoa Salad",
            "body": (
                "Ingredients:\nCooked quinoa, chopped cucumber, diced tomato, crumbled feta cheese, lemon "
                "vinaigrette\nInstructions:\nToss ingredients together. Season to taste."
            ),
        },
        {
            "title": "Peanut Butter Power Smoothie",
            "body": (
                "Ingredients:\nPeanut butter, banana, milk of choice, protein powder, ice\nInstructions:\nBlend until smooth and creamy."
            ),
        },
        {
            "title": "Cheesy Veggie Scramble",
            "body": (
                "Ingredients:\nEggs, shredded cheese, diced bell pepper, chopped spinach, hot sauce (optional)\n"
                "Instructions:\nSauté peppers and spinach. Whisk eggs with cheese, add to pan, and scramble. Top "
                "with hot sauce if desired."
            ),
        },
        {
            "title": "Tuna Salad Surprise",
            "body": (
                "Ingredients:\nCanned tuna, celery, mayonnaise, relish, crackers or bread\nInstructions:\nMix "
                "tuna, celery, mayonnaise, and relish. Serve on crackers or bread."
            ),
        },
        {
            "title": "Spicy Black Bean Wrap",
            "body": (
                "Ingredients:\nBlack beans, salsa, shredded cheese, avocado, tortilla\nInstructions:\nWarm beans, "
                "top tortilla with beans, salsa, cheese, and avocado."
            ),
        },
        {
            "title": "Fruity Yogurt Parfait",
            "body": (
                "Ingredients:\nGreek yogurt, granola, mixed berries\nInstructions:\nLayer yogurt, granola, and berries in a glass or jar."
            ),
        },
        {
            "title": "Sweet Potato Hash",
            "body": (
                "Ingredients:\nDiced sweet potato, onion, breakfast sausage (optional), seasoning\nInstructions:\n"
                "Cook sweet potatoes and onion until tender. Add sausage if desired. Season to taste."
            ),
        },
        {
            "title": "Hummus and Veggie Delight",
            "body": (
                "Ingredients:\nHummus, pita bread, cucumber slices, carrot sticks\nInstructions:\nSpread hummus on "
                "pita, top with cucumbers and carrots."
            ),
        },
        {
            "title": "Creamy Tomato Soup",
            "body": (
                "Ingredients:\nCanned tomatoes, heavy cream, basil, grilled cheese sandwich (for dipping)\n"
                "Instructions:\nBlend tomatoes and cream, heat gently. Season with basil. Serve with grilled "
                "cheese for dipping."
            ),
        },
        {
            "title": "Apple Cinnamon Overnight Oats",
            "body": (
                "Ingredients:\nRolled oats, milk of choice, grated apple, cinnamon, pinch of brown sugar\n"
                "Instructions:\nCombine oats, milk, apple, cinnamon, and brown sugar. Refrigerate overnight."
            ),
        },
        {"title": "Chicken Tikka Masala", "body": "Marinated chicken cooked in a creamy tomato sauce with aromatic spices."},
        {"title": "Chocolate Chip Cookies", "body": "Classic recipe for chewy cookies with chocolate chips and a hint of vanilla."},
        {"title": "Beef Stir-Fry", "body": "Quick and easy stir-fry with tenderbeef, colorful vegetables, and a savory sauce."},
        {"title": "Vegetarian Chili", "body": "Hearty chili packed with beans, vegetables, and spices, perfect for a cold day."},
        {"title": "Salmon with Roasted Vegetables", "body": "Healthy and flavorful dish with baked salmon and seasonal vegetables."},
        {"title": "Homemade Pizza", "body": "Pizza dough recipe, sauce options, topping ideas for a customizable pizza night."},
        {"title": "Pasta Carbonara", "body": "Creamy pasta dish with pancetta, eggs, Parmesan cheese, and black pepper."},
        {"title": "Pad Thai", "body": "Stir-fried rice noodles with tofu or shrimp, eggs, bean sprouts, and a tangy sauce."},
        {"title": "Chicken Pot Pie", "body": "Comforting pie filled with chicken, vegetables, and creamy sauce, topped with flaky crust."},
        {"title": "Shrimp Scampi", "body": "Garlic butter shrimp with pasta, lemon juice, white wine, and fresh herbs."},
        {
            "title": "French Onion Soup",
            "body": ("Rich and flavorful soup with caramelized onions, beef broth, and crusty bread topped with melted cheese."),
        },
        {"title": "Vegetable Curry", "body": "Aromatic curry with a variety of vegetables, coconut milk, and spices."},
        {"title": "Quinoa Salad", "body": "Healthy and refreshing salad with quinoa, vegetables, herbs, and a lemon vinaigrette."},
        {"title": "Banana Bread", "body": "Moist and flavorful bread made with ripe bananas, perfect for breakfast or a snack."},
        {"title": "Breakfast Burritos", "body": "Scrambled eggs, sausage, cheese, and vegetables wrapped in a warm tortilla."},
        {"title": "Chocolate Mousse", "body": "Decadent dessert made with chocolate, eggs, and cream, perfect for a special occasion."},
        {"title": "Apple Pie", "body": "Classic American dessert with a flaky crust filled with sweet and tart apples."},
        {"title": "Brownies", "body": "Fudgy or cakey brownies with chocolate chips or nuts."},
        {"title": "Pancakes", "body": "Fluffy pancakes topped with butter, maple syrup, and fresh fruit."},
        {
            "title": "Smoothie Recipes",
            "body": ("Various combinations of fruits, vegetables, yogurt, and protein powder for healthy and refreshing smoothies."),
        },
    ),
    "Tasks": (
        {"title": "Morning Routine", "body": "Tasks:\nMake bed\nShower and get dressed\nHealthy breakfast\nReview daily schedule"},
        {
            "title": "Website Updates",
            "body": ("Tasks:\nAdd new product photos\nUpdate contact form\nFix broken link on About page\nRun website speed test"),
        },
        {
            "title": "Grocery Trip",
            "body": ("Tasks:\nCheck pantry staples\nMake a list of needed items\nRemember reusable bags\nCheck for coupons or deals"),
        },
        {
            "title": "Travel Packing",
            "body": ("Tasks:\nCheck weather forecast\nChoose outfits and pack\nGather toiletries and essentials\nPrint travel documents"),
        },
        {"title": "Apartment Cleanup", "body": "Tasks:\nDo the dishes\nVacuum floors\nTidy living room\nTake out the trash"},
        {
            "title": "Project Brainstorm",
            "body": ("Tasks:\nDefine project goals\nFree-write potential ideas\nCreate a mind map\nIdentify next steps"),
        },
        {
            "title": "Email Inbox Zero",
            "body": (
                "Tasks:\nDelete junk mail\nRespond to urgent emails\nOrganize important emails into folders\n"
                "Unsubscribe from unwanted lists"
            ),
        },
        {"title": "Workout Routine", "body": "Tasks:\n5-minute warmup\n30 minutes cardio\nStrength training\nCool-down and stretching"},
        {
            "title": "Meal Planning",
            "body": ("Tasks:\nChoose recipes for the week\nMake a grocery list\nPrep ingredients if possible\nPlan for leftovers"),
        },
        {
            "title": "Relax and Recharge",
            "body": "Tasks:\nRead a book\nTake a relaxing bath\nListen to calming music\nGo for an evening walk",
        },
        {
            "title": "Grocery Shopping",
            "body": "- Milk, eggs, bread \n- Fruits and vegetables \n- Chicken breast \n- Pasta \n- Toilet paper",
        },
        {
            "title": "Pay Bills",
            "body": ("- Electricity bill due May 15th \n- Internet bill due May 20th \n- Credit card payment due May 25th"),
        },
        {"title": "Schedule Doctor's Appointment", "body": "Call Dr. Smith's office to schedule a check-up for next week."},
        {"title": "Email Project Update to Client", "body": "Send a summary of project progress and next steps to Acme Corp. by EOD."},
        {"title": "Finish Presentation Slides for Team Meeting", "body": "Complete slides on Q2 marketing strategy by Tuesday morning."},
        {"title": "Book Flight for Summer Vacation", "body": "Research and book round-trip flights to Hawaii for July."},
        {"title": "Renew Driver's License", "body": "Visit the DMV to renew driver's license before it expires next month."},
        {"title": "Research Summer Camps for Kids", "body": "Find options for summer camps that align with kids' interests and ages."},
        {"title": "Meal Prep for the Week", "body": "Cook a large batch of chicken and vegetables for lunches and dinners."},
        {"title": "Clean Out Garage", "body": "Sort through items, donate unwanted items, organize remaining items."},
        {"title": "Write Thank You Notes for Wedding Gifts", "body": "Send personalized thank you notes to all wedding guests."},
        {"title": "Call Mom for Her Birthday", "body": "Wish Mom a happy birthday and catch up."},
        {"title": "Schedule Oil Change for Car", "body": "Make an appointment with the mechanic for an oil change and tire rotation."},
        {"title": "Research New Laptop", "body": "Compare features, prices, and reviews of different laptops."},
        {"title": "Plant Vegetable Garden", "body": "Buy seeds or seedlings, prepare soil, plant vegetables in raised beds."},
        {"title": "Organize Closet", "body": "Declutter clothes, donate or sell unwanted items, rearrange remaining clothes."},
        {"title": "File Taxes", "body": "Gather tax documents, complete tax return, submit online or by mail."},
        {"title": "Plan Weekend Getaway", "body": "Research destinations, book accommodations, plan activities for a short trip."},
        {"title": "Learn New Skill", "body": "Enroll in online course or workshop on photography, coding, or language learning."},
        {"title": "Set Up Retirement Account", "body": "Open a Roth IRA or 401(k) and start contributing to retirement savings."},
    ),
    "Meeting Notes": (
        {"title": "Team Meeting - May 6, 2024", "body": "Agenda, discussion points, action items, decisions made, next steps."},
        {
            "title": "Client Meeting - Acme Corp. - April 25, 2024",
            "body": "Attendees, project updates, feedback, next steps, action items.",
        },
        {
            "title": "Brainstorming Session - New Product Ideas - April 18, 2024",
            "body": "Generated ideas, pros and cons, feasibility assessment, next steps.",
        },
        {
            "title": "Project Kickoff Meeting - Website Redesign - April 10, 2024",
            "body": "Project scope, timeline, team roles, communication plan, budget.",
        },
        {
            "title": "One-on-One Meeting with John - April 3, 2024",
            "body": "Performance feedback, career goals discussion, development opportunities.",
        },
        {
            "title": "Board Meeting - Q1 Financial Results - March 28, 2024",
            "body": "Financial report review, key performance indicators, budget discussion, future outlook.",
        },
        {
            "title": "Weekly Team Update - March 21, 2024",
            "body": "Progress updates on individual tasks, roadblocks, upcoming deadlines, team collaboration.",
        },
        {
            "title": "Client Presentation - Proposal Review - March 14, 2024",
            "body": "Proposal summary, client feedback, questions, revisions needed, next steps.",
        },
        {
            "title": "Training Session - New Software - March 7, 2024",
            "body": "Key features, how-to guide, troubleshooting tips, Q&A session.",
        },
        {
            "title": "Conference Call - Remote Team - February 28, 2024",
            "body": "Agenda, discussion points, action items for remote team collaboration and communication.",
        },
        {
            "title": "Performance Review Meeting - Sarah - February 21, 2024",
            "body": "Strengths, areas for improvement, goals for next quarter, development plan.",
        },
        {
            "title": "Departmental Budget Meeting - February 14, 2024",
            "body": "Budget review, cost-cutting measures, resource allocation, approval process.",
        },
        {
            "title": "All-Hands Meeting - Company Update - February 7, 2024",
            "body": "CEO presentation on company performance, new initiatives, Q&A session.",
        },
        {
            "title": "Client Feedback Session - Project X - January 31, 2024",
            "body": "Gathering feedback from client on project X, addressing concerns, identifying improvements.",
        },
        {
            "title": "Strategic Planning Meeting - January 24, 2024",
            "body": "Defining long-term goals, SWOT analysis, strategy development, implementation plan.",
        },
        {
            "title": "Team Building Workshop - January 17, 2024",
            "body": ("Activities and exercises to improve communication, collaboration, and trust among team members."),
        },
        {
            "title": "New Hire Orientation - January 10, 2024",
            "body": "Welcome new employees, introduce company culture, provide onboarding information.",
        },
        {
            "title": "Annual Performance Review - Self-Assessment - December 2023",
            "body": "Reflect on accomplishments, challenges, areas for growth, goals for the coming year.",
        },
        {
            "title": "Holiday Party Planning Meeting - December 2023",
            "body": "Venue selection, catering options, entertainment, budget, decorations, guest list.",
        },
        {
            "title": "Year-End Review Meeting - December 2023",
            "body": "Summary of company performance, achievements, challenges, goals for the next year.",
        },
        {
            "title": "Project Kickoff",
            "body": (
                "Attendees:\n{attendees:3}\nAgenda:\nProject scope and objectives\nTimeline and milestones\nRoles "
                "and responsibilities\nAction Items:\n{action_items:3}"
            ),
        },
        {
            "title": "Marketing Strategy Brainstorm",
            "body": (
                "Attendees:\n{attendees:2}\nAgenda:\nTarget audience analysis\nCampaign ideas\nBudget "
                "considerations\nAction Items:\n{action_items:2}"
            ),
        },
        {
            "title": "Website Redesign Review",
            "body": (
                "Attendees:\n{attendees:4}\nAgenda:\nReview proposed wireframes\nDiscuss content updates\nFeedback "
                "on user experience\nAction Items:\n{action_items:4}"
            ),
        },
        {
            "title": "Quarterly Sales Meeting",
            "body": (
                "Attendees:\n{attendees:3}\nAgenda:\nSales performance review\nNew product launch updates\nMarket "
                "analysis\nAction Items:\n{action_items:2}"
            ),
        },
        {
            "title": "Team Building Workshop",
            "body": (
                "Attendees:\n{attendees:3}\nAgenda:\nTeam challenges discussion\nCommunication exercises\n"
                "Goal-setting activities\nAction Items:\n{action_items:2}"
            ),
        },
        {
            "title": "Client Project Update",
            "body": (
                "Attendees:\n{attendees:3}\nAgenda:\nProject progress status\nChallenges and solutions\nBudget "
                "review\nAction Items:\n{action_items:2}"
            ),
        },
        {
            "title": "HR Policy Review",
            "body": (
                "Attendees:\n{attendees:4}\nAgenda:\nReview updates to vacation policy\nDiscuss benefits package "
                "changes\nNew hire onboarding process\nAction Items:\n{action_items:4}"
            ),
        },
        {
            "title": "Design Sprint Planning",
            "body": (
                "Attendees:\n{attendees:3}\nAgenda:\nDefine problem statement\nBrainstorm solutions\nPrototype and "
                "test ideas\nAction Items:\n{action_items:2}"
            ),
        },
        {
            "title": "Budget Review Meeting",
            "body": (
                "Attendees:\n{attendees:2}\nAgenda:\nReview past quarter expenses\nAnalyze budget variances\n"
                "Discuss upcoming project costs\nAction Items:\n{action_items:2}"
            ),
        },
        {
            "title": "All-Hands Team Meeting",
            "body": (
                "Attendees:\n{attendees:4}\nAgenda:\nCompany updates\nDepartment announcements\nCelebrate wins\n"
                "Action Items:\n{action_items:3}"
            ),
        },
    ),
    "Personal": (
        {"title": "Dream Journal Entry", "body": "Had a vivid dream about flyingover a vast ocean."},
        {"title": "Bucket List", "body": "1. Learn to surf. 2. Visit Machu Picchu. 3. Write a novel."},
        {"title": "Grocery List", "body": "Milk, eggs, bread, cheese, fruit, vegetables"},
        {
            "title": "Favorite Quotes",
            "body": ('"The only limit to our realization of tomorrow will be our doubts of today." - Franklin D. Roosevelt'),
        },
        {"title": "Movie Recommendations", "body": "- Everything Everywhere All at Once \n- The Grand Budapest Hotel \n- Parasite"},
        {"title": "Birthday Gift Ideas for Mom", "body": "Spa day, gardening tools, personalized photo album"},
        {
            "title": "Workout Routine",
            "body": (
                "Monday: Cardio \nTuesday: Strength training \nWednesday: Rest \nThursday: Yoga \nFriday: Cardio \nWeekend: Active recovery"
            ),
        },
        {
            "title": "Travel Itinerary for Japan",
            "body": (
                "Day 1: Arrive in Tokyo, explore Shinjuku \nDay 2: Visit the Imperial Palace and Sensoji Temple \n"
                "Day 3: Take a day trip to Hakone \nDay 4: Travel to Kyoto, visit Kiyomizu-dera Temple \nDay 5: "
                "Explore Arashiyama Bamboo Forest \nDay 6: Depart from Osaka"
            ),
        },
        {"title": "Things I'm Grateful For", "body": "My family, my health, my friends, my home, my job"},
        {
            "title": "Home Improvement Projects",
            "body": "Repaint the living room, install new kitchen backsplash, build a deck in the backyard",
        },
        {"title": "Party Planning Checklist", "body": "Send invitations, plan menu, decorate venue, create playlist, hire photographer"},
        {"title": "Random Thoughts", "body": "I wonder why cats purr? Is time travel possible? What's the meaning of life?"},
        {"title": "Password Ideas", "body": "Combination of letters, numbers, symbols, not easily guessable"},
        {"title": "Favorite Recipes", "body": "Chocolate chip cookies, lasagna, chicken tikka masala"},
        {
            "title": "Book Recommendations",
            "body": "- The Lord of the Rings \n- The Hitchhiker's Guide to the Galaxy \n- Pride and Prejudice",
        },
        {"title": "Song Lyrics I Love", "body": '"Imagine no possessions, I wonder if you can." - John Lennon'},
        {"title": "Things to Do This Weekend", "body": "Hike in the mountains, visit a museum, have a picnic in the park"},
        {"title": "Self-Care Ideas", "body": "Take a bubble bath, read a good book, meditate, spend time in nature"},
        {
            "title": "Personal Goals for the Year",
            "body": "1. Save for a down payment on a house. 2. Get a promotion at work. 3. Run a marathon.",
        },
    ),
    "Work": (
        {
            "title": "Meeting Notes - Q2 Marketing Strategy",
            "body": "Discussed social media campaigns, new product launch timeline, budget allocation.",
        },
        {
            "title": "Project Timeline - Website Redesign",
            "body": (
                "Phase 1: Wireframes due May 15th \nPhase 2: Design approvals by June 1st \nPhase 3: Development "
                "complete by July 15th \nPhase 4: Launch by August 1st"
            ),
        },
        {
            "title": "Performance Review Talking Points",
            "body": (
                "- Exceeded sales targets by 15% \n- Successfully led cross-functional team \n- Developed new client onboarding process"
            ),
        },
        {
            "title": "Client Feedback - Acme Corp.",
            "body": "Positive feedback on project delivery, requested additional features for Phase 2.",
        },
        {
            "title": "To-Do List",
            "body": (
                "1. Respond to client emails \n2. Prepare presentation for team meeting \n3. Review budget "
                "proposal \n4. Schedule one-on-one with Sarah"
            ),
        },
        {
            "title": "Conference Notes - Tech Summit 2024",
            "body": "Key takeaways on emerging technologies, potential applications for our industry.",
        },
        {
            "title": "Team Brainstorming - New Product Ideas",
            "body": "Generated 15 potential product ideas, will narrow down to top 3 for further development.",
        },
        {
            "title": "Employee Onboarding Checklist",
            "body": ("1. Set up workstation \n2. Provide access to company systems \n3. Schedule training sessions \n4. Assign mentor"),
        },
        {
            "title": "Company Policies and Procedures",
            "body": "Links to documents on vacation policy, expense reimbursement, code of conduct.",
        },
        {"title": "Travel Itinerary - Client Visit", "body": "Flights booked, hotel reservations confirmed, meeting schedule finalized."},
        {
            "title": "KPI Report - Q1 2024",
            "body": "Sales revenue up 10%, customer satisfaction rating at 92%, employee turnover rate at 5%.",
        },
        {"title": "Code Snippets - Python", "body": "Useful code examples for data analysis, web scraping, automation tasks."},
        {
            "title": "Industry News and Trends",
            "body": "Summary of recent articles on market developments, competitor activity, regulatory changes.",
        },
        {
            "title": "Job Descriptions - Open Positions",
            "body": "Detailed descriptions for Marketing Manager, Software Engineer, Sales Representative roles.",
        },
        {
            "title": "Meeting Minutes - Weekly Team Update",
            "body": "Summary of discussion points, action items, decisions made during the meeting.",
        },
        {
            "title": "Training Materials - New Software",
            "body": "Step-by-step guides, video tutorials, FAQs for learning how to use the new software.",
        },
        {
            "title": "Contact List - Key Clients",
            "body": "Names, email addresses, phone numbers, company affiliations of important clients.",
        },
        {"title": "Budget Proposal - 2025", "body": "Detailed breakdown of projected expenses and revenue for each department."},
        {
            "title": "Professional Development Resources",
            "body": "Links to online courses, workshops, conferences relevant to career growth.",
        },
        {
            "title": "Team Building Activities",
            "body": "Ideas for virtual and in-person activities to improve team morale and collaboration.",
        },
    ),
    "School": (
        {
            "title": "Lecture Notes - Intro to Psychology",
            "body": "Key concepts: nature vs. nurture, cognitive development, social psychology.",
        },
        {"title": "Reading List - American Literature", "body": "- The Scarlet Letter \n- The Great Gatsby \n- Moby Dick"},
        {"title": "Study Guide - Calculus Midterm", "body": "Topics covered: derivatives, integrals, limits, applications."},
        {
            "title": "Research Paper Outline - Climate Change",
            "body": ("I. Introduction \nII. Causes of Climate Change \nIII. Impacts on the Environment \nIV. Solutions \nV. Conclusion"),
        },
        {
            "title": "Group Project Notes - Marketing Campaign",
            "body": ("Team members: Sarah, David, Emily. Due date: May 30th. Focus: promoting a new sustainable product."),
        },
        {"title": "Exam Schedule - Spring Semester", "body": "May 10th: Calculus \nMay 15th: American Literature \nMay 20th: Psychology"},
        {
            "title": "Class Syllabus - Introduction to Computer Science",
            "body": "Course overview, grading policy, weekly schedule, required readings.",
        },
        {
            "title": "Essay Draft - The Role of Technology in Education",
            "body": "Discusses the benefits and challenges of integrating technology into classrooms.",
        },
        {"title": "Lab Report - Chemistry Experiment", "body": "Purpose, materials, procedure, results, analysis, conclusion."},
        {"title": "Flashcards - Spanish Vocabulary", "body": "Front: hola \nBack: hello"},
        {
            "title": "Scholarship Application Deadlines",
            "body": "May 1st: National Merit Scholarship \nJune 1st: College Board Opportunity Scholarships",
        },
        {
            "title": "Student Club Meeting Notes - Debate Club",
            "body": "Discussed upcoming tournament, new member recruitment, fundraising ideas.",
        },
        {
            "title": "Campus Resources - Writing Center",
            "body": "Offers one-on-one tutoring for essays, research papers, and other writing assignments.",
        },
        {"title": "Professor Contact Information", "body": "Dr. Smith: jsmith@university.edu \nDr. Johnson: sjohnson@university.edu"},
        {"title": "Financial Aid Checklist", "body": "1. Submit FAFSA \n2. Apply for scholarships \n3. Contact financial aid office"},
        {"title": "Campus Event Calendar", "body": "May 10th: Spring Concert \nMay 15th: Career Fair \nMay 20th: Guest Speaker Lecture"},
        {
            "title": "Study Tips for Final Exams",
            "body": "Create a study schedule, review notes regularly, form study groups, practice with past exams.",
        },
        {"title": "Internship Opportunities - Summer 2024", "body": "Marketing internship at XYZ Company, Research internship at ABC Lab"},
        {
            "title": "Book Recommendations from Professor",
            "body": ("- Sapiens: A Brief History of Humankind \n- Thinking, Fast and Slow \n- Outliers: The Story of Success"),
        },
        {"title": "Study Abroad Programs - Fall 2024", "body": "Programs available in Spain, France, Italy, Germany, and Japan."},
    ),
    "Home": (
        {
            "title": "Home Maintenance Schedule",
            "body": (
                "Spring: clean gutters, check roof for damage, service AC \nSummer: mow lawn weekly, trim hedges, "
                "check sprinkler system \nFall: rake leaves, clean chimney, winterize pipes \nWinter: check for "
                "ice dams, shovel snow, change air filters"
            ),
        },
        {"title": "Grocery List", "body": "- Milk \n- Eggs \n- Bread \n- Cheese \n- Fruits \n- Vegetables \n- Toilet paper"},
        {"title": "Recipe - Chicken Noodle Soup", "body": "Ingredients: chicken, noodles, carrots, celery, onion, broth, herbs."},
        {
            "title": "Cleaning Checklist",
            "body": (
                "Kitchen: clean countertops, wipe down appliances, sweep and mop floor \nBathroom: clean toilet, "
                "sink, shower/tub, mirrors \nLiving room: dust furniture, vacuum carpet, fluff pillows"
            ),
        },
        {"title": "Home Renovation Ideas", "body": "- Update kitchen cabinets \n- Refinish hardwood floors \n- Paint living room walls"},
        {"title": "Packing List - Summer Vacation", "body": "- Clothes for warm weather \n- Swimsuit \n- Sunscreen \n- Hat \n- Sunglasses"},
        {"title": "Gardening Tips", "body": "Water plants regularly, fertilize monthly, prune as needed, check for pests."},
        {"title": "Emergency Contact List", "body": "Police: 911 \nFire: 911 \nNeighbor: (123) 456-7890"},
        {"title": "Wi-Fi Password", "body": "Network Name: MyHomeWifi \nPassword: supersecretpassword"},
        {"title": "Home Inventory", "body": "List of valuable items in case of insurance claim (electronics, jewelry, furniture)."},
        {
            "title": "Houseplant Care Guide",
            "body": "Specific care instructions for each houseplant (watering frequency, light needs, soil type).",
        },
        {
            "title": "Utility Bill Due Dates",
            "body": "Electricity: 15th of every month \nGas: 20th of every month \nWater: 5th of every month",
        },
        {"title": "Party Planning - Birthday", "body": "Guest list, menu, decorations, entertainment."},
        {"title": "Neighborhood Watch Meeting Notes", "body": "Discussed recent crime trends, safety tips, upcoming events."},
        {"title": "Pet Care Reminders", "body": "Feed dog twice a day, walk dog daily, clean litter box, schedule vet checkups."},
        {"title": "DIY Project - Bookshelf", "body": "Materials needed: wood, screws, nails, saw, drill."},
        {"title": "Movie Night Ideas", "body": "List of family-friendly movies to watch together."},
        {"title": "Recipes to Try", "body": "Links or descriptions of new recipes to cook at home."},
        {
            "title": "Home Security Checklist",
            "body": ("Lock doors and windows, install alarm system, set timers for lights, don't hide spare keys outside."),
        },
        {"title": "Holiday Decoration Ideas", "body": "Themes, color schemes, DIY crafts, shopping list."},
    ),
    "Projects": (
        {
            "title": "Community Garden Project",
            "body": ("Create a shared green space for the neighborhood, promoting sustainable food production and community connection."),
        },
        {
            "title": "Home Renovation - Kitchen Remodel",
            "body": "Design plans, budget, materials list, contractor quotes, timeline for a kitchen renovation.",
        },
        {
            "title": "Mobile App Development - Expense Tracker",
            "body": "Project outline, wireframes, technology stack, development timeline, marketing plan.",
        },
        {
            "title": "Book Writing Project - Mystery Novel",
            "body": "Outline, character sketches, plot points, research notes, writing schedule.",
        },
        {
            "title": "Online Course Creation - Web Development Basics",
            "body": "Course curriculum, lesson plans, video scripts, assessment questions, marketing strategy.",
        },
        {
            "title": "DIY Furniture Building - Coffee Table",
            "body": "Design plans, materials list, tools required, step-by-step instructions, finishing options.",
        },
        {
            "title": "Photography Portfolio Website",
            "body": "Website design mockups, image selection, content writing, hosting platform, launch plan.",
        },
        {
            "title": "Charity Fundraising Event - 5K Run/Walk",
            "body": "Event logistics, sponsorships, marketing plan, registration process, volunteer coordination.",
        },
        {
            "title": "Small Business Launch - Handmade Jewelry",
            "body": "Business plan, product line, branding, pricing, marketing strategy, online store setup.",
        },
        {
            "title": "Art Installation - Public Sculpture",
            "body": ("Concept sketches, material selection, fabrication process, installation logistics, funding proposals."),
        },
        {
            "title": "Documentary Film - Local Environmental Issues",
            "body": "Research topics, interview subjects, filming locations, script outline, editing plan.",
        },
        {
            "title": "Music Album Recording - Indie Rock Band",
            "body": "Songwriting, studio booking, recording schedule, mixing and mastering, album artwork design.",
        },
        {
            "title": "Community Theater Production - Shakespeare Play",
            "body": "Casting calls, rehearsal schedule, set design, costume design, marketing plan.",
        },
        {
            "title": "Coding Challenge - Machine Learning Algorithm",
            "body": ("Problem statement, data set, algorithm implementation, performance evaluation, results analysis."),
        },
        {
            "title": "Website Redesign - Non-Profit Organization",
            "body": "Needs analysis, wireframes, design mockups, content migration, development plan.",
        },
        {
            "title": "Product Launch - Smart Home Device",
            "body": ("Market research, product specifications, pricing strategy, marketing campaign, launch timeline."),
        },
        {
            "title": "Interior Design Project - Living Room Makeover",
            "body": "Mood board, furniture selection, color palette, lighting plan, accessories.",
        },
        {
            "title": "Travel Blog - Solo Trip Around Southeast Asia",
            "body": "Itinerary, travel tips, destination highlights, photography plan, content schedule.",
        },
        {
            "title": "Language Learning Project - Conversational Spanish",
            "body": ("Study plan, learning resources, practice activities, language exchange partners, progress tracking."),
        },
        {
            "title": "Health and Fitness Challenge - 30-Day Transformation",
            "body": "Workout plan, meal plan, progress tracking, motivation tips, before-and-after photos.",
        },
    ),
    "Ideas": (
        {"title": "Personalized Pet Portraits", "body": "Offer custom-painted portraits of pets based on photos provided by clients."},
        {"title": "Language Learning App", "body": "Gamified language learning app with interactive exercises and personalized feedback."},
        {
            "title": "Sustainable Fashion Subscription Box",
            "body": "Curated selection of eco-friendly clothing and accessories delivered monthly.",
        },
        {"title": "Virtual Reality Escape Room", "body": "Immersive escape room experience using VR technology."},
        {
            "title": "Food Delivery Service for Dietary Restrictions",
            "body": "Cater to people with allergies, intolerances, or specific diets.",
        },
        {"title": "Mental Health Support App", "body": "Provides resources, guided meditations, and online therapy options."},
        {
            "title": "AI-Powered Personalized Travel Itinerary Generator",
            "body": "Creates custom travel plans based on user preferences and interests.",
        },
        {"title": "Smart Home Gardening System", "body": "Automated watering, lighting, and nutrient monitoring for indoor plants."},
        {"title": "Subscription Box for Book Lovers", "body": "Curated selection of books, bookish goodies, and exclusive author content."},
        {"title": "Online Platform for Local Artisans", "body": "Showcase and sell handmade crafts and artwork directly to consumers."},
        {"title": "Eco-Friendly Cleaning Products", "body": "Develop and market a line of sustainable cleaning products for households."},
        {
            "title": "Personalized Nutrition Coaching App",
            "body": "Offers customized meal plans and fitness recommendations based on individual goals and needs.",
        },
        {
            "title": "Social Media Platform for Pet Owners",
            "body": "Connect with other pet owners, share photos, and find pet-related services.",
        },
        {"title": "Online Marketplace for Vintage Clothing", "body": "Buy and sell unique vintage clothing and accessories."},
        {"title": "Augmented Reality Furniture Shopping App", "body": "Visualize how furniture would look in your home before buying."},
        {
            "title": "Subscription Service for Sustainable Home Goods",
            "body": "Deliver eco-friendly household products and reusable alternatives to single-use items.",
        },
        {
            "title": "Crowdfunding Platform for Creative Projects",
            "body": "Support artists, musicians, filmmakers, and other creatives in funding their projects.",
        },
        {
            "title": "Mobile App for Finding Local Volunteer Opportunities",
            "body": "Connect volunteers with organizations in need of their skills and time.",
        },
        {"title": "Online Marketplace for Personalized Gifts", "body": "Offer custom-made gifts for various occasions and interests."},
        {"title": "Zero-Waste Grocery Store", "body": "Sell bulk food items and package-free products to reduce waste."},
    ),
    "Health": (
        {
            "title": "Workout Routine - Strength Training",
            "body": "Exercises for each muscle group, sets, reps, rest periods, weekly schedule.",
        },
        {"title": "Meal Plan - Week of May 6th", "body": "Breakfast, lunch, dinner, snacks for each day, grocery list, recipes."},
        {
            "title": "Doctor's Appointment Notes - May 3rd",
            "body": ("Summary of discussion with doctor, diagnosis, treatment plan, medication list, follow-up appointments."),
        },
        {
            "title": "Medication Schedule",
            "body": "List of medications, dosage, frequency, time to take, potential side effects, refills needed.",
        },
        {"title": "Health Goals for 2024", "body": "Lose 10 pounds, run a 5K, reduce stress, improve sleep quality, get regular checkups."},
        {"title": "Fitness Tracker Data - April 2024", "body": "Steps taken, calories burned, active minutes, sleep duration, heart rate."},
        {
            "title": "Mental Health Resources",
            "body": ("Contact information for therapists, support groups, hotlines, websites, apps for mental well-being."),
        },
        {
            "title": "Healthy Recipes to Try",
            "body": "Links or descriptions of nutritious recipes for breakfast, lunch, dinner, snacks, desserts.",
        },
        {"title": "Nutrition Tips", "body": "Guidelines for balanced eating, portion control, healthy food swaps, meal prep ideas."},
        {
            "title": "Exercise Ideas",
            "body": ("Variety of workouts for different fitness levels and interests (cardio, strength, flexibility)."),
        },
        {
            "title": "Sleep Hygiene Checklist",
            "body": ("Tips for creating a relaxing bedtime routine, improving sleep environment, getting quality sleep."),
        },
        {
            "title": "Health Insurance Information",
            "body": "Policy number, provider contact information, coverage details, copayments, deductibles.",
        },
        {"title": "Allergy Information", "body": "List of allergies, triggers, symptoms, treatment plan, emergency contact information."},
        {"title": "Medical History", "body": "Summary of past illnesses, surgeries, medications, immunizations, family medical history."},
        {
            "title": "Weight Loss Progress Tracker",
            "body": "Starting weight, current weight, goal weight, weight loss milestones, measurements.",
        },
        {
            "title": "Meditation and Mindfulness Resources",
            "body": "Guided meditations, mindfulness exercises, breathing techniques for stress reduction.",
        },
        {
            "title": "Health-Related Articles and Blogs",
            "body": "Links to informative articles on health topics, wellness trends, medical research.",
        },
        {
            "title": "Health Challenges and Solutions",
            "body": "Personal notes on overcoming health obstacles, strategies for managing chronic conditions.",
        },
        {"title": "Fitness Class Schedule", "body": "Days, times, locations of fitness classes (yoga, Pilates, Zumba, strength training)."},
        {"title": "Food Diary", "body": "Record of daily food intake, calories, macronutrients, micronutrients, water intake."},
    ),
    "Travel": (
        {
            "title": "Trip Itinerary - Europe Summer 2024",
            "body": ("Flights, accommodations, transportation, daily activities, sightseeing plans, restaurant reservations."),
        },
        {
            "title": "Packing List - Beach Vacation",
            "body": "Clothing, toiletries, electronics, travel documents, beach gear, first-aid kit.",
        },
        {
            "title": "Travel Budget - Southeast Asia Backpacking",
            "body": "Estimated costs for flights, accommodation, food, transportation, activities, visas.",
        },
        {
            "title": "Travel Insurance Information",
            "body": "Policy number, provider contact information, coverage details, claim procedures.",
        },
        {"title": "Language Phrasebook - Italian", "body": "Common phrases for greetings, directions, ordering food, asking for help."},
        {
            "title": "Travel Tips - Staying Healthy Abroad",
            "body": "Vaccinations, food and water safety, jet lag prevention, managing common illnesses.",
        },
        {"title": "Bucket List Destinations", "body": "Dream travel destinations with reasons for visiting and potential activities."},
        {"title": "Hotel Reviews - Paris", "body": "Reviews of hotels in Paris based on location, amenities, price, service, cleanliness."},
        {
            "title": "Flight Confirmation - Round-trip to Tokyo",
            "body": "Airline, flight numbers, departure and arrival times, seat assignments, baggage allowance.",
        },
        {
            "title": "Restaurant Recommendations - Rome",
            "body": "List of restaurants in Rome with cuisine type, price range, location, reviews.",
        },
        {
            "title": "Travel Photography Tips",
            "body": "Equipment recommendations, composition techniques, capturing different types of travel photos.",
        },
        {
            "title": "Visa Requirements - China",
            "body": "Information on visa types, application process, required documents, processing times.",
        },
        {
            "title": "Travel Journal - Road Trip Across America",
            "body": "Daily entries documenting experiences, observations, thoughts, and feelings during the trip.",
        },
        {
            "title": "Transportation Options - London",
            "body": ("Information on public transportation (tube, buses), taxis, ride-sharing services, bike rentals."),
        },
        {
            "title": "Travel Apps and Websites",
            "body": ("List of useful apps for booking flights, hotels, finding restaurants, translating languages, navigating."),
        },
        {
            "title": "Cultural Etiquette Tips - Japan",
            "body": ("Customs and traditions to be aware of, do's and don'ts, appropriate behavior in different settings."),
        },
        {"title": "Solo Travel Tips", "body": "Advice on staying safe, meeting people, planning activities, budgeting for solo travelers."},
        {
            "title": "Travel Gear Checklist",
            "body": "Essentials like luggage, backpacks, travel adapters, toiletries, first-aid kit, travel pillow.",
        },
        {
            "title": "Festivals and Events Calendar - Europe",
            "body": ("List of upcoming festivals, cultural events, concerts, exhibitions in different European countries."),
        },
        {"title": "Travel Photography Gear", "body": "Camera, lenses, tripod, filters, memory cards, batteries, cleaning supplies."},
    ),
    "Finance": (
        {"title": "Monthly Budget - May 2024", "body": "Income, expenses, savings goals, spending categories, debt repayment plan."},
        {
            "title": "Investment Portfolio Summary",
            "body": ("Breakdown of investments (stocks, bonds, mutual funds), performance overview, asset allocation."),
        },
        {
            "title": "Retirement Savings Plan",
            "body": "Contribution schedule, target retirement age, projected retirement income, investment options.",
        },
        {
            "title": "Tax Preparation Checklist - 2023",
            "body": "Documents needed (W-2, 1099 forms), deductions to claim, tax filing deadline.",
        },
        {
            "title": "Mortgage Payment Schedule",
            "body": "Loan amount, interest rate, monthly payment, remaining balance, amortization schedule.",
        },
        {
            "title": "Emergency Fund Progress",
            "body": "Current balance, savings goal, monthly contributions, target amount (3-6 months of expenses).",
        },
        {
            "title": "Credit Card Statement - April 2024",
            "body": "Transactions, due date, minimum payment, outstanding balance, rewards earned.",
        },
        {
            "title": "Financial Goals for 2024",
            "body": ("Save for a down payment on a house, pay off student loan debt, increase retirement contributions."),
        },
        {
            "title": "Investment Research - Tech Stocks",
            "body": "Analysis of potential tech companies to invest in, growth projections, risk assessment.",
        },
        {
            "title": "Budgeting Tips & Tricks",
            "body": "Strategies for saving money, reducing expenses, tracking spending, automating savings.",
        },
        {"title": "Financial Advisor Contact Information", "body": "Name, email address, phone number, website of financial advisor."},
        {
            "title": "Online Banking Login Details",
            "body": "Username, password, security questions, account numbers for online banking access.",
        },
        {
            "title": "Insurance Policies Summary",
            "body": ("Coverage details for health, auto, home, life insurance policies, contact information for insurers."),
        },
        {
            "title": "Debt Repayment Plan",
            "body": ("List of debts (credit cards, student loans), balances, interest rates, minimum payments, payoff strategies."),
        },
        {
            "title": "Expense Tracking Spreadsheet",
            "body": "Template for tracking daily expenses, categorizing spending, identifying areas for saving.",
        },
        {
            "title": "Financial News & Analysis",
            "body": "Summary of articles and reports on market trends, economic outlook, investment strategies.",
        },
        {"title": "Personal Finance Resources", "body": "Links to helpful websites, blogs, podcasts, books on personal finance topics."},
        {
            "title": "College Savings Plan - 529 Account",
            "body": "Beneficiary information, investment options, contribution history, projected college costs.",
        },
        {
            "title": "Estate Planning Documents",
            "body": "Will, power of attorney, healthcare directive, beneficiaries, executor information.",
        },
        {
            "title": "Charitable Giving Log",
            "body": "Record of donations to charitable organizations, amounts, dates, tax-deductible status.",
        },
    ),
}
#: The task parameters of the Joplin questions (``tasks.textproto``: each task's ``task_params``, in
#: its order, drawn one value each).
JOPLIN_QUESTION_PARAMS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "NotesRecipeIngredientCount": {
        "title": (
            "Pancake Recipe",
            "Spaghetti Carbonara",
            "Chocolate Cake",
            "Chicken Alfredo",
            "Vegetable Stir-fry",
            "Beef Stew",
            "Lasagna",
            "Salmon Salad",
            "Tacos",
            "Fruit Smoothie",
        ),
        "ingredient_quantity": (
            "1 cup",
            "2 cups",
            "1/2 cup",
            "3/4 cup",
            "1/4 cup",
            "1 tablespoon",
            "2 tablespoons",
            "1 teaspoon",
            "2 teaspoons",
            "3 teaspoons",
        ),
        "ingredient": (
            "almond flour",
            "coconut sugar",
            "chia seeds",
            "tahini",
            "matcha powder",
            "acai berries",
            "goji berries",
            "spirulina",
            "maca powder",
            "hemp seeds",
            "arrowroot powder",
            "quinoa flakes",
            "buckwheat groats",
            "millet",
        ),
        "body": (
            (
                "Ingredients:\n- 1 cup all-purpose flour\n- 1/2 cup granulated sugar\n- {ingredient_quantity} "
                "{ingredient}\n- 1 teaspoon baking powder\n- 2 tablespoons unsalted butter\n- 1/4 teaspoon salt\n\n"
                "Instructions:\n1. Preheat oven to 350°F (175°C).\n2. In a mixing bowl, combine all-purpose flour, "
                "granulated sugar, and baking powder.\n3. Add unsalted butter and salt, mixing until well "
                "combined.\n4. Grease a baking dish and pour the mixture into it.\n5. Bake in preheated oven for "
                "25-30 minutes, or until golden brown.\n6. Let cool for a few minutes before serving.\n"
            ),
            (
                "Ingredients:\n- {ingredient_quantity} {ingredient}\n- 2 cups all-purpose flour\n- 1/2 cup "
                "granulated sugar\n- 1 tablespoon baking powder\n- 1/2 teaspoon salt\n- 1 cup milk\n\n"
                "Instructions:\n1. Preheat oven to 400°F (200°C).\n2. In a mixing bowl, combine all-purpose flour, "
                "granulated sugar, baking powder, and salt.\n3. Stir in milk until just combined.\n4. Drop dough "
                "by spoonfuls onto a greased baking sheet.\n5. Bake for 15-18 minutes, or until golden brown.\n6. "
                "Serve warm with butter or jam.\n"
            ),
            (
                "Ingredients:\n- 2 cups rolled oats\n- {ingredient_quantity} {ingredient}\n- 1/2 cup packed brown "
                "sugar\n- 1 teaspoon baking powder\n- 1/2 teaspoon cinnamon\n- 1/4 teaspoon salt\n\nInstructions:\n"
                "1. Preheat oven to 350°F (175°C).\n2. In a mixing bowl, combine rolled oats, brown sugar, baking "
                "powder, cinnamon, and salt.\n3. Stir in melted butter until mixture is crumbly.\n4. Press mixture "
                "into a greased baking dish.\n5. Bake for 25-30 minutes, or until edges are golden brown.\n6. Let "
                "cool before cutting into squares.\n"
            ),
            (
                "Ingredients:\n- 1 1/2 cups all-purpose flour\n- 1/2 cup granulated sugar\n- 1/4 cup unsweetened "
                "cocoa powder\n- {ingredient_quantity} {ingredient}\n- 1 teaspoon baking powder\n- 1/4 teaspoon "
                "salt\n\nInstructions:\n1. Preheat oven to 350°F (175°C).\n2. In a mixing bowl, combine "
                "all-purpose flour, granulated sugar, cocoa powder, baking powder, and salt.\n3. Stir in melted "
                "butter and milk until well combined.\n4. Pour batter into a greased baking dish.\n5. Bake for "
                "20-25 minutes, or until a toothpick inserted into the center comes out clean.\n6. Let cool before "
                "cutting into squares.\n"
            ),
            (
                "Ingredients:\n- 1 1/2 cups all-purpose flour\n- 1/2 cup packed brown sugar\n- 1 teaspoon baking "
                "powder\n- 1/2 teaspoon baking soda\n- 1/4 teaspoon salt\n- {ingredient_quantity} {ingredient}\n\n"
                "Instructions:\n1. Preheat oven to 375°F (190°C).\n2. In a mixing bowl, combine all-purpose flour, "
                "brown sugar, baking powder, baking soda, and salt.\n3. Stir in mashed bananas, melted butter, "
                "egg, and vanilla extract until just combined.\n4. Pour batter into a greased loaf pan.\n5. Bake "
                "for 50-60 minutes, or until a toothpick inserted into the center comes out clean.\n6. Let cool in "
                "the pan for 10 minutes before transferring to a wire rack to cool completely.\n"
            ),
            (
                "Ingredients:\n- 1 cup whole wheat flour\n- 1/2 cup brown sugar\n- 1 teaspoon baking soda\n- "
                "{ingredient_quantity} {ingredient}\n- 2 tablespoons olive oil\n- 1/4 teaspoon cinnamon\n\n"
                "Instructions:\n1. Preheat oven to 375°F (190°C).\n2. In a mixing bowl, combine whole wheat flour, "
                "brown sugar, and baking soda.\n3. Add olive oil and cinnamon, mixing until well combined.\n4. "
                "Grease a baking dish and pour the mixture into it.\n5. Bake in preheated oven for 20-25 minutes, "
                "or until cooked through.\n6. Let cool for a few minutes before serving.\n"
            ),
            (
                "Ingredients:\n- 2 cups rolled oats\n- 1/2 cup honey\n- 1 teaspoon vanilla extract\n- "
                "{ingredient_quantity} {ingredient}\n- 1/2 cup almond butter\n- 1/4 cup chopped nuts\n\n"
                "Instructions:\n1. Preheat oven to 350°F (175°C).\n2. In a mixing bowl, combine rolled oats, "
                "honey, and vanilla extract.\n3. Add almond butter and chopped nuts, mixing until well combined.\n"
                "4. Press the mixture into a lined baking pan.\n5. Bake in preheated oven for 15-20 minutes, or "
                "until golden brown.\n6. Let cool completely before cutting into bars.\n"
            ),
            (
                "Ingredients:\n- 1 cup quinoa\n- 2 cups vegetable broth\n- 1/2 cup diced tomatoes\n- 1/4 cup "
                "chopped bell peppers\n- 1/4 cup sliced olives\n- {ingredient_quantity} {ingredient}\n\n"
                "Instructions:\n1. Rinse quinoa under cold water.\n2. In a saucepan, bring vegetable broth to a "
                "boil.\n3. Add quinoa, diced tomatoes, bell peppers, and olives to the saucepan.\n4. Reduce heat, "
                "cover, and simmer for 15-20 minutes, or until quinoa is cooked and liquid is absorbed.\n5. Fluff "
                "quinoa with a fork before serving.\n"
            ),
            (
                "Ingredients:\n- 1 cup cooked chickpeas\n- 1/2 cup tahini\n- 1/4 cup lemon juice\n- "
                "{ingredient_quantity} {ingredient}\n- 2 cloves garlic\n- 1/4 teaspoon cumin\n\nInstructions:\n1. "
                "In a food processor, combine cooked chickpeas, tahini, lemon juice, garlic, and cumin.\n2. "
                "Process until smooth and creamy.\n3. Transfer hummus to a serving bowl.\n4. Drizzle with olive "
                "oil and sprinkle with paprika before serving.\n"
            ),
            (
                "Ingredients:\n- 2 cups cooked quinoa\n- 1/2 cup black beans\n- {ingredient_quantity} "
                "{ingredient}\n- 1/4 cup corn kernels\n- 1/4 cup diced tomatoes\n- 1/4 cup chopped cilantro\n\n"
                "Instructions:\n1. In a large bowl, combine cooked quinoa, black beans, corn kernels, diced "
                "tomatoes, and chopped cilantro.\n2. Toss until well mixed.\n3. Serve as a side dish or use as a "
                "filling for burritos or tacos.\n"
            ),
            (
                "Ingredients:\n- 1 cup cooked lentils\n- 1/2 cup diced onions\n- 1/4 cup chopped carrots\n- 1/4 "
                "cup chopped celery\n- {ingredient_quantity} {ingredient}\n- 1/4 cup vegetable broth\n\n"
                "Instructions:\n1. In a saucepan, sauté diced onions, chopped carrots, and chopped celery until "
                "softened.\n2. Add cooked lentils and vegetable broth to the saucepan.\n3. Simmer for 10-15 "
                "minutes, or until heated through.\n4. Season with salt and pepper to taste.\n"
            ),
            (
                "Ingredients:\n- 1 cup cooked brown rice\n- {ingredient_quantity} {ingredient}\n- 1/2 cup diced "
                "bell peppers\n- 1/4 cup sliced mushrooms\n- 1/4 cup chopped spinach\n- 1/4 cup shredded cheese\n\n"
                "Instructions:\n1. In a skillet, sauté diced bell peppers, sliced mushrooms, and chopped spinach "
                "until tender.\n2. Add cooked brown rice to the skillet and stir until heated through.\n3. "
                "Sprinkle shredded cheese over the rice mixture and cover until melted.\n4. Serve hot as a side "
                "dish or as a filling for burritos.\n"
            ),
        ),
    },
    "NotesMeetingAttendeeCount": {
        "title": (
            "Team Weekly Sync",
            "Client Quarterly Review",
            "Project Kickoff Meeting",
            "Budget Planning Session",
            "Sales Strategy Discussion",
            "Product Roadmap Alignment",
            "Marketing Campaign Planning",
            "Development Sprint Review",
            "Customer Feedback Session",
            "Executive Board Meeting",
            "Financial Performance Analysis",
            "Product Launch Preparation",
            "Training Workshop for New Hires",
            "Vendor Negotiation Meeting",
            "Strategic Partnership Discussion",
            "Departmental Alignment Meeting",
            "Quality Assurance Review",
            "Project Status Update",
            "Employee Performance Evaluation",
            "Company All-Hands Meeting",
        ),
        "attendee_count": (
            "5",
            "10",
            "15",
            "20",
            "25",
            "30",
            "35",
            "40",
            "45",
            "50",
            "55",
            "60",
            "65",
            "70",
            "75",
            "80",
            "85",
            "90",
            "95",
            "100",
        ),
        "body": (
            (
                "Meeting Notes:\n- Discussed project milestones\n- Assigned action items to team members\n- "
                "Reviewed budget allocation\n- Decided on next meeting date\n- Attended by {attendee_count} "
                "participants\n"
            ),
            (
                "Meeting Minutes:\n- Presented sales performance metrics\n- Brainstormed marketing strategies\n- "
                "Addressed client concerns\n- {attendee_count} attendees were present\n"
            ),
            (
                "Meeting Recap:\n- Analyzed customer feedback\n- Proposed product feature enhancements\n- "
                "Scheduled follow-up meetings\n- {attendee_count} individuals attended\n"
            ),
            (
                "Meeting Summary:\n- Reviewed quarterly goals\n- Evaluated team performance\n- Identified areas "
                "for improvement\n- {attendee_count} people were present\n"
            ),
            (
                "Meeting Highlights:\n- Reviewed project timeline\n- Discussed resource allocation\n- Collaborated "
                "on problem-solving\n- {attendee_count} attendees participated\n"
            ),
            (
                "Meeting Details:\n- Discussed upcoming project deadlines\n- Reviewed customer feedback\n- "
                "Assigned tasks to team members\n- {attendee_count} people attended\n"
            ),
            (
                "Meeting Discussion:\n- Brainstormed ideas for product improvement\n- Discussed marketing "
                "strategies\n- Addressed customer concerns\n- {attendee_count} participants attended\n"
            ),
            (
                "Meeting Agenda:\n- Review project progress\n- Discuss upcoming deadlines\n- Assign tasks\n- "
                "{attendee_count} participants were present\n"
            ),
            (
                "Meeting Review:\n- Evaluate team performance\n- Discuss challenges faced\n- Plan for future "
                "tasks\n- {attendee_count} attendees were present\n"
            ),
            (
                "Meeting Outcome:\n- Agreed upon next steps\n- Set goals for the upcoming week\n- Assigned "
                "responsibilities\n- {attendee_count} individuals attended\n"
            ),
            (
                "Meeting Wrap-up:\n- Summarize key discussion points\n- Set action items\n- Confirm next meeting "
                "date\n- {attendee_count} participants participated\n"
            ),
            (
                "Meeting Highlights:\n- Review project milestones\n- Discuss budget allocation\n- Assign tasks\n- "
                "{attendee_count} people were present\n"
            ),
            (
                "Meeting Agenda:\n- Review project status\n- Plan upcoming tasks\n- Discuss resource allocation\n- "
                "{attendee_count} individuals attended\n"
            ),
            (
                "Meeting Feedback:\n- Provide input on project progress\n- Suggest improvements\n- Discuss "
                "challenges faced\n- {attendee_count} attendees participated\n"
            ),
            (
                "Meeting Discussion:\n- Brainstorm ideas for upcoming projects\n- Review customer feedback\n- Plan "
                "marketing strategies\n- {attendee_count} people attended\n"
            ),
            (
                "Meeting Action Items:\n- Assign tasks to team members\n- Set deadlines\n- Confirm "
                "responsibilities\n- {attendee_count} participants were present\n"
            ),
            (
                "Meeting Summary:\n- Review key decisions made\n- Discuss project timeline\n- Assign action items\n"
                "- {attendee_count} attendees participated\n"
            ),
            (
                "Meeting Follow-up:\n- Review action items from previous meeting\n- Assign new tasks\n- Confirm "
                "deadlines\n- {attendee_count} individuals were present\n"
            ),
            ("Meeting Outcome:\n- Review project progress\n- Discuss challenges\n- Plan next steps\n- {attendee_count} people attended\n"),
        ),
    },
    "NotesIsTodo": {
        "title": (
            "Grocery List",
            "Meeting Agenda",
            "Project Proposal",
            "Daily Journal",
            "To-Do List",
            "Research Notes",
            "Travel Itinerary",
            "Recipe Collection",
            "Budget Spreadsheet",
            "Training Manual",
        ),
        "is_todo": (
            "True",
            "False",
        ),
        "body": (
            "Buy milk, eggs, bread, and cereal from the grocery store.",
            "Meeting with client at 2 PM to discuss project requirements.",
            "Call mom to wish her a happy birthday.",
            "Finish presentation slides for the team meeting tomorrow.",
            "Pick up dry cleaning from the tailor on Main Street.",
            "Review chapter 5 for upcoming history exam.",
            "Book flight tickets for vacation next month.",
            "Research new workout routines for fitness goals.",
            "Schedule dentist appointment for next week.",
            "Write thank you cards for colleagues who helped with the project.",
        ),
        "folder": (
            "Personal",
            "Work",
            "School",
            "Home",
            "Projects",
            "Ideas",
            "Recipes",
            "Finance",
            "Health",
            "Travel",
        ),
    },
    "NotesTodoItemCount": {
        "folder": (
            "Personal",
            "Work",
            "School",
            "Home",
            "Projects",
            "Ideas",
            "Recipes",
            "Finance",
            "Health",
            "Travel",
        ),
        "title": (
            "Grocery List",
            "Meeting Agenda",
            "Personal Goals",
            "Work Tasks",
            "Home Improvement",
            "Study Notes",
            "Recipe Ideas",
            "Financial Plan",
            "Health Routine",
            "Travel Itinerary",
        ),
        "body": (
            "Buy milk, eggs, bread, and cereal from the grocery store.",
            "Discuss project updates, assign tasks, and review deadlines.",
            "Exercise 3 times a week, read 1 book per month, and save $500.",
            "Complete quarterly report, schedule team meeting, and follow up with clients.",
            "Paint the living room, fix leaky faucet, and organize closet.",
            "Review chapters 1-5 for upcoming exam, create flashcards, and practice problems.",
            "Try new pasta recipe with homemade sauce and garlic bread.",
            "Create monthly budget, track expenses, and set savings goals.",
            "Go for a 30-minute run, do yoga for flexibility, and meditate for relaxation.",
            "Book flights, reserve accommodations, and plan sightseeing activities.",
        ),
    },
}
